import Foundation

/// A real PostgreSQL server for one test: a cluster made by `initdb` in a temporary directory,
/// listening on a Unix socket in that directory and on a loopback port of its own, started and
/// stopped with `pg_ctl`, whose `-w` waits for the server to accept connections (or to be gone),
/// bounded by `-t`: no test waits a fixed time.
///
/// The superuser `daq` logs in with a password (SCRAM) over the socket and TCP alike, so a
/// wrong password is refused as it would be on a real server. `initdb` and `postgres` refuse
/// to run as root: as root (CI), they run as `nobody` through `setpriv`, as ``Unprivileged``
/// does, in a directory that user owns.
public final class PostgresServer: @unchecked Sendable {
    // @unchecked: a test drives its server from one task; nothing here is shared.
    /// A PostgreSQL program this machine lacks.
    public struct NotInstalled: Error, CustomStringConvertible {
        public var program: String
        public var description: String {
            "\(program) is not installed: apt-get install -y postgresql (scripts/test.sh does it)"
        }
    }

    /// Its cluster, socket and log.
    public let directory: String
    /// The loopback port it listens on.
    public let port: Int
    /// Its superuser, who logs in with ``password``.
    public let user = "daq"
    /// The superuser's password.
    public let password = "s3cret-\(UUID().uuidString.prefix(8))"
    private var data: String { directory + "/data" }
    private var running = false

    /// The socket's directory (short: a socket path has at most 107 bytes).
    public var socketDirectory: String { directory }

    /// `postgres://daq@/DB?host=DIR&port=PORT`: the Unix socket.
    public func socketURL(_ database: String = "postgres") -> String {
        "postgres://\(user)@/\(database)?host=\(socketDirectory)&port=\(port)"
    }

    /// `postgres://daq@127.0.0.1:PORT/DB?sslmode=disable`: the loopback port.
    public func tcpURL(_ database: String = "postgres") -> String {
        "postgres://\(user)@127.0.0.1:\(port)/\(database)?sslmode=disable"
    }

    /// Makes the cluster (not started).
    /// - Throws: ``NotInstalled``, or what `initdb` printed when it failed.
    public init() throws {
        directory = "/tmp/daq-pg-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        port = try LoopbackPort.reserve()
        let pwfile = directory + "/pw"
        try password.write(toFile: pwfile, atomically: true, encoding: .utf8)
        if getuid() == 0 {
            // The server runs as nobody, who must own its directory and read the password file.
            for path in [directory, pwfile] {
                try FileManager.default.setAttributes(
                    [.ownerAccountID: Unprivileged.id, .groupOwnerAccountID: Unprivileged.id], ofItemAtPath: path)
            }
        }
        try Self.run(
            "initdb",
            [
                "-D", data, "-U", user, "--pwfile=\(pwfile)", "--auth=scram-sha-256", "--no-locale", "-E", "UTF8",
                "--no-sync",
            ])
    }

    deinit {
        if running { try? stop() }
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// Starts the server; returns once it accepts connections.
    public func start() throws {
        try Self.run(
            "pg_ctl",
            [
                "start", "-D", data, "-w", "-t", "60", "-l", directory + "/server.log", "-o",
                "-c listen_addresses=127.0.0.1 -p \(port) -k \(socketDirectory) -c fsync=off",
            ])
        running = true
    }

    /// Stops the server as an operator would (`-m fast`: connections are ended, open
    /// transactions rolled back); returns once it is gone.
    public func stop() throws {
        try Self.run("pg_ctl", ["stop", "-D", data, "-m", "fast", "-w", "-t", "60"])
        running = false
    }

    /// What `psql` prints for `sql` in `database` (unaligned, tuples only, `|` between cells).
    public func query(_ sql: String, database: String = "postgres") throws -> String {
        let r = try Process.runToEnd(
            "psql",
            [
                "-X", "-h", socketDirectory, "-p", "\(port)", "-U", user, "-d", database, "-At", "-v",
                "ON_ERROR_STOP=1", "-c", sql,
            ],
            environment: ["PGPASSWORD": password], timeout: 60)
        guard r.status == 0 else { throw Failure(message: "psql \(sql): \(r.errors)") }
        return r.output.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Creates a database.
    public func createDatabase(_ name: String) throws {
        _ = try query("CREATE DATABASE \"\(name)\"")
    }

    /// A server program or psql that failed, with what it printed.
    public struct Failure: Error, CustomStringConvertible {
        public var message: String
        public var description: String { message }
    }

    /// Finds a PostgreSQL program on PATH or in Debian's versioned folder.
    public static func find(_ program: String) throws -> String {
        for dir in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":") {
            let path = "\(dir)/\(program)"
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? []
        for v in versions.sorted(by: { (Int($0) ?? 0) > (Int($1) ?? 0) }) {
            let path = "/usr/lib/postgresql/\(v)/bin/\(program)"
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        throw NotInstalled(program: program)
    }

    /// Runs a server program to its end, as nobody when the test runs as root.
    private static func run(_ program: String, _ arguments: [String]) throws {
        let r = try Unprivileged.run(try find(program), arguments, timeout: 120)
        guard r.status == 0 else {
            throw Failure(
                message: "\(program) \(arguments.joined(separator: " ")) exited \(r.status): \(r.errors)\(r.output)")
        }
    }
}
