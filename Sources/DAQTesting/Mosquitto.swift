import Foundation

/// A real Mosquitto broker for one test: its own config in a temporary directory, a loopback
/// port of its own (``LoopbackPort``), started and waited for by connecting (bounded retries
/// before a deadline), killed and restarted on the same port when a test asks, stopped at the end.
///
/// Started with `posix_spawn` and a cleared signal mask: the spawning thread may block signals
/// (Dispatch's threads do), and a broker inheriting that mask would ignore SIGTERM.
public final class Mosquitto: @unchecked Sendable {
    // @unchecked: a test drives its broker from one task; `process` is not shared.
    public struct NotInstalled: Error, CustomStringConvertible {
        public var description: String {
            "mosquitto is not installed: apt-get install -y mosquitto mosquitto-clients (scripts/test.sh does it)"
        }
    }

    /// Its configuration, data and log.
    public let directory: URL
    /// The loopback port it listens on.
    public let port: Int
    /// Client names and passwords it accepts; empty for anonymous clients.
    public let users: [String: String]
    private var pid: pid_t?

    /// `mqtt://127.0.0.1:PORT`.
    public var url: String { "mqtt://127.0.0.1:\(port)" }
    /// The TLS URL, by the name the test certificate is for.
    public var tlsURL: String { "mqtts://localhost:\(port)" }
    /// The test CA's certificate, for `ca_file`.
    public var caFile: String { directory.appendingPathComponent("ca.pem").path }
    /// A client certificate the test CA signed, and its key, for `cert_file` and `key_file`.
    public var clientCertFile: String { directory.appendingPathComponent("client.pem").path }
    public var clientKeyFile: String { directory.appendingPathComponent("client.key").path }

    /// Writes the config; `users` makes the broker refuse anonymous clients and check passwords.
    /// `persistent` keeps sessions on disk, saved every second, so a killed broker comes back
    /// with its subscribers' sessions (see ``waitForSave(after:)``).
    /// `clientCertificates` (with `tls`) makes it refuse a client without a certificate the test
    /// CA signed, and writes one for ``clientCertFile``.
    public init(
        users: [String: String] = [:], port: Int? = nil, persistent: Bool = false, tls: Bool = false,
        clientCertificates: Bool = false
    ) throws {
        guard let binary = Self.find("mosquitto"), !binary.isEmpty else { throw NotInstalled() }
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("daq-mosquitto-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        self.port = try port ?? LoopbackPort.reserve()
        self.users = users
        var conf = """
            listener \(self.port) 127.0.0.1
            persistence \(persistent)
            persistence_location \(directory.path)/
            autosave_interval 1
            user root
            max_queued_messages 1000000
            max_inflight_messages 0
            log_dest file \(directory.path)/mosquitto.log
            log_type error
            log_type warning

            """
        if tls {
            // A CA of the test's own and a server certificate for localhost, made with openssl.
            guard let openssl = Self.find("openssl") else { throw BrokerError(description: "openssl is not installed") }
            let d = directory.path
            try Self.runTool(
                openssl,
                [
                    "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=daq test CA",
                    "-keyout", "\(d)/ca.key", "-out", "\(d)/ca.pem",
                ])
            try Self.runTool(
                openssl,
                [
                    "req", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=localhost",
                    "-keyout", "\(d)/server.key", "-out", "\(d)/server.csr",
                ])
            try "subjectAltName=DNS:localhost,IP:127.0.0.1\n".write(
                toFile: "\(d)/san.ext", atomically: true, encoding: .utf8)
            try Self.runTool(
                openssl,
                [
                    "x509", "-req", "-in", "\(d)/server.csr", "-CA", "\(d)/ca.pem", "-CAkey", "\(d)/ca.key",
                    "-CAcreateserial", "-days", "2", "-extfile", "\(d)/san.ext", "-out", "\(d)/server.pem",
                ])
            conf += "cafile \(d)/ca.pem\ncertfile \(d)/server.pem\nkeyfile \(d)/server.key\n"
            if clientCertificates {
                try Self.runTool(
                    openssl,
                    [
                        "req", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=daq test client",
                        "-keyout", "\(d)/client.key", "-out", "\(d)/client.csr",
                    ])
                try Self.runTool(
                    openssl,
                    [
                        "x509", "-req", "-in", "\(d)/client.csr", "-CA", "\(d)/ca.pem", "-CAkey", "\(d)/ca.key",
                        "-CAcreateserial", "-days", "2", "-out", "\(d)/client.pem",
                    ])
                conf += "require_certificate true\n"
            }
        }
        if users.isEmpty {
            conf += "allow_anonymous true\n"
        } else {
            guard let passwd = Self.find("mosquitto_passwd") else { throw NotInstalled() }
            let file = directory.appendingPathComponent("passwords").path
            for (i, (user, password)) in users.sorted(by: { $0.key < $1.key }).enumerated() {
                try Self.runTool(passwd, (i == 0 ? ["-c", "-b"] : ["-b"]) + [file, user, password])
            }
            chmod(file, 0o600)
            conf += "allow_anonymous false\npassword_file \(file)\n"
        }
        try conf.write(to: directory.appendingPathComponent("mosquitto.conf"), atomically: true, encoding: .utf8)
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(at: directory)
    }

    /// Starts the broker and returns once it accepts connections.
    public func start() throws {
        // posix_spawn and waitpid, not Foundation's Process: its waitUntilExit can hang on Linux.
        let binary = Self.find("mosquitto")!
        let args = [binary, "-c", directory.appendingPathComponent("mosquitto.conf").path]
        var argv = args.map { strdup($0) } + [nil]
        defer { for a in argv { free(a) } }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        // The spawning thread may block signals (Dispatch's threads do); the broker must not
        // inherit that mask, or it would ignore SIGTERM.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        var all = sigset_t()
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var pid: pid_t = 0
        let rc = posix_spawn(&pid, binary, &actions, &attributes, &argv, environ)
        guard rc == 0 else {
            throw BrokerError(description: "cannot start mosquitto: \(String(cString: strerror(rc)))")
        }
        self.pid = pid
        // Bounded retries against a deadline: the broker is ready when a connect succeeds.
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            if Self.canConnect(port: port) { return }
            var status: Int32 = 0
            if waitpid(pid, &status, WNOHANG) == pid {
                self.pid = nil
                break
            }
            usleep(10_000)
        }
        let log = (try? String(contentsOf: directory.appendingPathComponent("mosquitto.log"), encoding: .utf8)) ?? ""
        throw BrokerError(description: "mosquitto did not accept connections on 127.0.0.1:\(port) within 10 s: \(log)")
    }

    /// Waits until a persistent broker has saved its state after `date`: then a kill loses no
    /// session that existed at `date`.
    public func waitForSave(after date: Date) -> Bool {
        let db = directory.appendingPathComponent("mosquitto.db").path
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            if let saved = (try? FileManager.default.attributesOfItem(atPath: db))?[.modificationDate] as? Date,
                saved > date
            {
                return true
            }
            usleep(20_000)
        }
        return false
    }

    /// Restarts the broker on the same port with the same data: SIGTERM, wait for it to exit
    /// (a persistent broker saves its sessions and their queued messages then), start again.
    /// - Throws: ``BrokerError`` when it does not come back.
    public func restart() throws {
        stop()
        try start()
    }

    /// SIGKILL: the broker dies mid-stream, as a crash would leave it.
    public func kill() { signal(SIGKILL) }

    /// SIGTERM, and wait for it to exit; one still running after 30 s is killed (SIGKILL).
    public func stop() { signal(SIGTERM) }

    private func signal(_ sig: Int32) {
        guard let pid else { return }
        Foundation.kill(pid, sig)
        // Polled against a deadline: a broker that missed SIGTERM must not hang the test.
        var status: Int32 = 0
        let deadline = Date().addingTimeInterval(30)
        while waitpid(pid, &status, WNOHANG) == 0 {
            guard Date() < deadline else {
                Foundation.kill(pid, SIGKILL)
                _ = waitpid(pid, &status, 0)
                break
            }
            usleep(5_000)
        }
        self.pid = nil
    }

    /// The broker could not be set up or did not come up.
    public struct BrokerError: Error, CustomStringConvertible {
        public var description: String
        public init(description: String) { self.description = description }
    }

    static func find(_ tool: String) -> String? {
        let path = (ProcessInfo.processInfo.environment["PATH"] ?? "") + ":/usr/sbin:/usr/bin:/sbin:/usr/local/sbin"
        for dir in path.split(separator: ":") {
            let candidate = "\(dir)/\(tool)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    static func runTool(_ path: String, _ arguments: [String]) throws {
        let r = try Process.runToEnd(path, arguments, timeout: 120)
        guard r.status == 0 else {
            throw BrokerError(
                description: "\(path) \(arguments.joined(separator: " ")) exited \(r.status): \(r.errors.suffix(1000))")
        }
    }

    static func canConnect(port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var addr = LoopbackPort.address(port)
        return withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        } == 0
    }
}
