import Foundation

/// A real Mosquitto broker on a loopback port of its own, stopped with the test.
///
/// Started with `posix_spawn` and a cleared signal mask, not Foundation's `Process`: the
/// spawning thread may block signals (Dispatch's threads do), and a broker inheriting that mask
/// ignores SIGTERM. Ready once a connect succeeds: bounded retries before a deadline, the way
/// DAQTransportTests' Mosquitto helper waits (the broker's own log is block-buffered on a pipe).
final class Broker: @unchecked Sendable {
    // @unchecked: immutable after `init`.
    let port: Int
    let directory: String
    private let pid: pid_t

    /// `nil` when Mosquitto is not installed (scripts/test.sh installs it).
    static func start() throws -> Broker? {
        guard let binary = ["/usr/sbin/mosquitto", "/usr/bin/mosquitto", "/usr/local/sbin/mosquitto"]
            .first(where: FileManager.default.isExecutableFile(atPath:))
        else { return nil }
        return try Broker(binary: binary)
    }

    private init(binary: String) throws {
        directory = Fixtures.scratch()
        port = SilentServer.refusedPort()
        let conf = """
            listener \(port) 127.0.0.1
            allow_anonymous true
            user root
            max_queued_messages 1000000
            max_inflight_messages 0
            log_dest none

            """
        try conf.write(toFile: directory + "/mosquitto.conf", atomically: true, encoding: .utf8)
        pid = try Self.spawn([binary, "-c", directory + "/mosquitto.conf"])
        let deadline = Date().addingTimeInterval(30)
        while !Self.canConnect(port: port) {
            var status: Int32 = 0
            if Date() > deadline || waitpid(pid, &status, WNOHANG) == pid {
                kill(pid, SIGKILL)
                throw Failed(description: "mosquitto did not accept connections on 127.0.0.1:\(port)")
            }
            usleep(10_000)
        }
    }

    var url: String { "mqtt://127.0.0.1:\(port)" }

    deinit {
        kill(pid, SIGTERM)
        var status: Int32 = 0
        _ = waitpid(pid, &status, 0)
        try? FileManager.default.removeItem(atPath: directory)
    }

    private static func spawn(_ args: [String]) throws -> pid_t {
        var argv = args.map { strdup($0) } + [nil]
        defer { for a in argv { free(a) } }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
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
        let rc = posix_spawn(&pid, args[0], &actions, &attributes, &argv, environ)
        guard rc == 0 else { throw Failed(description: "cannot start mosquitto: \(String(cString: strerror(rc)))") }
        return pid
    }

    private static func canConnect(port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        addr.sin_port = UInt16(port).bigEndian
        let size = socklen_t(MemoryLayout<sockaddr_in>.size)
        return withUnsafePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, size) } } == 0
    }
}
