import Foundation
import Testing

/// A real Mosquitto broker for one test: its own config in a temporary directory, a free
/// loopback port, started and waited for by connecting (bounded retries before a deadline),
/// killed and restarted on the same port when a test asks, stopped at the end.
final class Mosquitto: @unchecked Sendable {
    // @unchecked: a test drives its broker from one task; `process` is not shared.
    struct NotInstalled: Error, CustomStringConvertible {
        var description: String {
            "mosquitto is not installed: apt-get install -y mosquitto mosquitto-clients (scripts/test.sh does it)"
        }
    }

    let directory: URL
    let port: Int
    let users: [String: String]
    private var process: Process?

    var url: String { "mqtt://127.0.0.1:\(port)" }

    /// Writes the config; `users` makes the broker refuse anonymous clients and check passwords.
    init(users: [String: String] = [:], port: Int? = nil) throws {
        guard let binary = Self.find("mosquitto"), !binary.isEmpty else { throw NotInstalled() }
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("daq-mosquitto-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        self.port = try port ?? Self.freePort()
        self.users = users
        var conf = """
            listener \(self.port) 127.0.0.1
            persistence false
            user root
            max_queued_messages 1000000
            log_dest file \(directory.path)/mosquitto.log
            log_type error
            log_type warning

            """
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
    func start() throws {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: Self.find("mosquitto")!)
        p.arguments = ["-c", directory.appendingPathComponent("mosquitto.conf").path]
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        process = p
        // Bounded retries against a deadline: the broker is ready when a connect succeeds.
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            if Self.canConnect(port: port) { return }
            guard p.isRunning else { break }
            usleep(10_000)
        }
        let log = (try? String(contentsOf: directory.appendingPathComponent("mosquitto.log"), encoding: .utf8)) ?? ""
        throw BrokerError(description: "mosquitto did not accept connections on 127.0.0.1:\(port) within 10 s: \(log)")
    }

    /// SIGKILL: the broker dies mid-stream, as a crash would leave it.
    func kill() {
        guard let p = process, p.isRunning else { return }
        Foundation.kill(p.processIdentifier, SIGKILL)
        p.waitUntilExit()
        process = nil
    }

    /// SIGTERM and wait.
    func stop() {
        guard let p = process, p.isRunning else { return }
        p.terminate()
        p.waitUntilExit()
        process = nil
    }

    struct BrokerError: Error, CustomStringConvertible {
        var description: String
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
        let p = Process()
        p.executableURL = URL(fileURLWithPath: path)
        p.arguments = arguments
        p.standardOutput = FileHandle.nullDevice
        try p.run()
        p.waitUntilExit()
        guard p.terminationStatus == 0 else {
            throw BrokerError(description: "\(path) \(arguments.joined(separator: " ")) exited \(p.terminationStatus)")
        }
    }

    /// A port nobody listens on now: bind port 0 and read what the kernel chose.
    static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        addr.sin_port = 0
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, len) } }
        guard bound == 0 else { throw BrokerError(description: "cannot bind a loopback port") }
        _ = withUnsafeMutablePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &len) } }
        return Int(UInt16(bigEndian: addr.sin_port))
    }

    static func canConnect(port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        addr.sin_port = UInt16(port).bigEndian
        return withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        } == 0
    }
}
