// mqtt: messages/s through the `mqtt` sink to a local Mosquitto at QoS 0 and 1, small samples,
// beside mosquitto_pub publishing the same number of lines of the same size in the same run.
//
//   swift run -c release daq-bench mqtt [MESSAGES]
//
// Each figure is N messages over the wall time from the run's start until the last one is
// settled: written to the connection at QoS 0, acknowledged by PUBACK at QoS 1.
import DAQCore
import DAQKit
import DAQTesting
import Foundation
import Glibc

func mqttBench(messages n: Int) throws {
    // The same throwaway broker the tests use: its own config, a free loopback port.
    let broker = try Mosquitto()
    try broker.start()
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
