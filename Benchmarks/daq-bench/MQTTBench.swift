// mqtt: messages/s through the `mqtt` sink to a local Mosquitto at QoS 0 and 1, small samples,
// beside mosquitto_pub publishing the same number of lines of the same size in the same run.
//
//   swift run -c release daq-bench mqtt [MESSAGES]
//
// Each figure is N messages over the wall time from the run's start until the last one is
// settled: written to the connection at QoS 0, acknowledged by PUBACK at QoS 1.
import DAQCLI
import DAQCore
import Foundation
import Glibc

func mqttBench(messages n: Int) throws {
    let broker = try BenchBroker()
    defer { broker.stop() }
    print("mqtt: \(n) messages to mosquitto on 127.0.0.1:\(broker.port), one small sample each")
    for qos in [0, 1] {
        let yaml = """
            name: mqtt-bench
            clock: virtual
            sources: {gen: {type: generator, signal: counter, rate: 1000, count: \(n)}}
            sinks: {pub: {type: mqtt, inputs: [gen], url: "mqtt://127.0.0.1:\(broker.port)", topic: bench/daq, qos: \(qos), queue: 50000, max_inflight: 5000}}
            """
        let spec = try PipelineLoader(registry: try PluginRegistry(BuiltinPlugins.all)).load(
            text: yaml, file: "mqtt-bench")
        let started = DispatchTime.now().uptimeNanoseconds
        let run = try PipelineRun(spec: spec, options: RunOptions(flushInterval: 0))
        try run.start()
        let result = run.wait()
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        guard let pub = result.stages.first(where: { $0.name == "pub" }), pub.delivered == n else {
            throw BenchError(
                "QoS \(qos): delivered \(result.stages.last?.delivered ?? 0) of \(n): \(result.failure ?? "")")
        }
        let bytes = pub.bytes / max(pub.delivered, 1)
        let ours = Double(n) / seconds
        let theirs = try mosquittoPub(port: broker.port, qos: qos, messages: n, payloadBytes: bytes)
        print(
            "  QoS \(qos): daq mqtt sink \(Int(ours)) msgs/s (\(fmt(seconds)) s, \(bytes) B payloads); mosquitto_pub -l \(Int(theirs)) msgs/s"
        )
    }
}

private func fmt(_ s: Double) -> String { String(format: "%.2f", s) }

/// Times `mosquitto_pub -l` publishing `messages` lines of `payloadBytes` bytes.
private func mosquittoPub(port: Int, qos: Int, messages: Int, payloadBytes: Int) throws -> Double {
    let line = String(repeating: "x", count: max(payloadBytes, 1)) + "\n"
    let input = FileManager.default.temporaryDirectory.appendingPathComponent("daq-bench-lines-\(getpid()).txt")
    defer { try? FileManager.default.removeItem(at: input) }
    guard
        FileManager.default.createFile(
            atPath: input.path, contents: Data(String(repeating: line, count: messages).utf8))
    else {
        throw BenchError("cannot write \(input.path)")
    }
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/usr/bin/mosquitto_pub")
    p.arguments = ["-h", "127.0.0.1", "-p", "\(port)", "-t", "bench/pub", "-q", "\(qos)", "-l"]
    p.standardInput = try FileHandle(forReadingFrom: input)
    let started = DispatchTime.now().uptimeNanoseconds
    try p.run()
    p.waitUntilExit()
    let seconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
    guard p.terminationStatus == 0 else { throw BenchError("mosquitto_pub exited \(p.terminationStatus)") }
    return Double(messages) / seconds
}

/// Mosquitto on a free loopback port with a config of its own, for one benchmark run.
final class BenchBroker {
    let port: Int
    let directory: String
    private var pid: pid_t = 0

    init() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/sbin/mosquitto") else {
            throw BenchError("mosquitto is not installed: apt-get install -y mosquitto mosquitto-clients")
        }
        directory = NSTemporaryDirectory() + "daq-bench-mosquitto-\(getpid())"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        port = Int(20000 + getpid() % 20000)
        let conf =
            "listener \(port) 127.0.0.1\nallow_anonymous true\npersistence false\nuser root\nmax_queued_messages 1000000\nlog_type none\n"
        try conf.write(toFile: directory + "/mosquitto.conf", atomically: true, encoding: .utf8)
        let args: [String] = ["/usr/sbin/mosquitto", "-c", directory + "/mosquitto.conf"]
        var argv: [UnsafeMutablePointer<CChar>?] = args.map { strdup($0) } + [nil]
        defer { for a in argv { free(a) } }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK))
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        guard posix_spawn(&pid, "/usr/sbin/mosquitto", &actions, &attributes, &argv, environ) == 0 else {
            throw BenchError("cannot start mosquitto")
        }
        for _ in 0..<500 {
            if canConnect() { return }
            usleep(10_000)
        }
        throw BenchError("mosquitto did not start on port \(port)")
    }

    private func canConnect() -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        addr.sin_port = UInt16(port).bigEndian
        return withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        } == 0
    }

    func stop() {
        kill(pid, SIGTERM)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        try? FileManager.default.removeItem(atPath: directory)
    }
}
