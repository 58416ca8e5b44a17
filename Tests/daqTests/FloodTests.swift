import DAQTesting
import Foundation
import Testing

/// Floods from outside against the real `daq`: memory and the run's record stay flat.
@Suite("floods of bad input")
struct FloodTests {
    static let flood = 20_000

    /// Kilobytes of resident memory of `pid` now (`VmRSS`) or at its peak so far (`VmHWM`).
    static func memory(_ pid: Int32, _ key: String) -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        let line = text.split(separator: "\n").first { $0.hasPrefix(key + ":") }
        return line.flatMap { Int($0.filter(\.isNumber)) }
    }

    /// 20,000 payloads that are no samples (each holding an escape sequence) on a subscribed
    /// topic, then one sample: the run counts every one, logs the first few and a summary,
    /// and its peak memory and manifest stay small. (Before, each was a note in the manifest,
    /// 2.2 MB of them, and two lines on stderr. A flood much larger than this stalls the `mqtt`
    /// source on its keep-alive, in the original build too: a bug of its own.)
    @Test func twentyThousandBadMQTTPayloads() throws {
        let broker = try Mosquitto()
        try broker.start()
        let publisher = try #require(
            ["/usr/bin/mosquitto_pub", "/usr/local/bin/mosquitto_pub"].first {
                FileManager.default.isExecutableFile(atPath: $0)
            }, "mosquitto_pub is not installed (scripts/test.sh installs mosquitto-clients)")
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("daq-flood-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let pipeline = dir.appendingPathComponent("flood.yaml")
        try """
        name: flood
        clock: realtime
        sources:
          fleet: {type: mqtt, url: "\(broker.url)", topics: ["flood/#"]}
        sinks:
          log: {type: logger.jsonl, inputs: [fleet], directory: "\(dir.path)/out"}
        """.write(to: pipeline, atomically: true, encoding: .utf8)
        // The sample after the flood is the last one: the run ends by itself once every bad
        // payload before it was handled.
        let daq = try LiveProcess([
            "run", pipeline.path, "--status", "never", "--events", "jsonl", "--max-samples", "1",
        ])
        func publish(_ lines: Data) throws {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: publisher)
            p.arguments = ["-p", "\(broker.port)", "-t", "flood/x", "-q", "1", "-l"]
            let input = Pipe()
            p.standardInput = input
            try p.run()
            try input.fileHandleForWriting.writeWithoutSIGPIPE(lines)
            try input.fileHandleForWriting.close()
            #expect(p.reapExitStatus() == 0)
        }
        // The subscription is in place once a probe is reported: probes until then, a bounded few.
        var subscribed = false
        var probes = 0
        for _ in 0..<50 where !subscribed {
            try publish(Data("probe\n".utf8))
            probes += 1
            subscribed = daq.line(timeout: 1) { $0.contains("is not samples") } != nil
        }
        try #require(subscribed, "\(daq.stderr.suffix(2000))")
        let pid = daq.process.processIdentifier
        let before = try #require(Self.memory(pid, "VmRSS"))
        var flood = Data()
        for i in 0..<Self.flood { flood.append(contentsOf: "not json \(i) \u{1B}[2J\n".utf8) }
        flood.append(contentsOf: #"{"timestamp": 1, "x": 1}"#.utf8)
        flood.append(0x0A)
        try publish(flood)
        // VmHWM is the high-water mark: read until the run says it finished, the last reading
        // is its peak over the whole flood. A bounded wait.
        var peak = before
        let deadline = Date(timeIntervalSinceNow: 120)
        var finished = false
        while !finished && Date() < deadline {
            if let mark = Self.memory(pid, "VmHWM") { peak = max(peak, mark) }
            finished = daq.line(timeout: 0.05) { $0.hasPrefix("flood: finished") } != nil
        }
        #expect(finished, "\(daq.stderr.suffix(2000))")
        #expect(daq.finish() == 0, "\(daq.stderr.suffix(2000))")

        let stderr = daq.stderr
        let warnings = stderr.split(separator: "\n").filter { $0.contains(#""event":"warning""#) }
        #expect(warnings.count < 40, "\(warnings.count) warnings printed")
        #expect(stderr.contains("… and 19,9"), "\(stderr.suffix(2000))")
        #expect(!stderr.contains("\u{1B}"), "an escape sequence reached the terminal")
        let out = dir.appendingPathComponent("out").path
        let run = try #require(try FileManager.default.contentsOfDirectory(atPath: out).first)
        let manifest = "\(out)/\(run)/manifest.json"
        let size = try #require(try FileManager.default.attributesOfItem(atPath: manifest)[.size] as? Int)
        // Every bad payload was counted, none lost: the flood and the probes that arrived.
        let record = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: manifest)))
        let stages = (record as? [String: Any])?["stages"] as? [[String: Any]]
        let errors = try #require(stages?.first?["errors"] as? Int, "no stage counters in \(record)")
        #expect(((Self.flood + 1)...(Self.flood + probes)).contains(errors), "\(errors) errors counted")
        print("flood: RSS \(before) kB before, peak \(peak) kB; manifest \(size) bytes")
        #expect(size < 16_384, "the manifest takes \(size) bytes")
        // Before, the notes alone grew it by 10 MB; what is left is the client's buffers.
        #expect(peak - before < 8 * 1024, "RSS went from \(before) kB to a peak of \(peak) kB")
    }

    /// An `exec` child that writes a million lines to stderr (each with an escape sequence),
    /// then one sample: every line is counted, the first few logged and the rest summarised,
    /// none reaches the terminal raw, and memory and the manifest stay flat. (Before, each line
    /// was a note: a 35 MB manifest and 253 MB of memory.)
    @Test func aMillionStderrLinesFromAnExecChild() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("daq-flood-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let pipeline = dir.appendingPathComponent("chatty.yaml")
        let lines = 1_000_000
        try """
        name: chatty
        clock: virtual
        sources:
          child:
            type: exec
            command: [sh, -c, 'yes "$(printf "noise \\033[2J")" | head -n \(lines) >&2; echo "{\\"x\\": 1}"']
        sinks:
          log: {type: logger.jsonl, inputs: [child], directory: "\(dir.path)/out"}
        """.write(to: pipeline, atomically: true, encoding: .utf8)
        let daq = try LiveProcess(["run", pipeline.path, "--status", "never", "--events", "jsonl"])
        let pid = daq.process.processIdentifier
        // VmHWM is the high-water mark: the last reading before the run ends is its peak.
        var peak = 0
        let deadline = Date(timeIntervalSinceNow: 300)
        var finished = false
        while !finished && Date() < deadline {
            if let mark = Self.memory(pid, "VmHWM") { peak = max(peak, mark) }
            finished = daq.line(timeout: 0.05) { $0.hasPrefix("chatty: finished") } != nil
        }
        #expect(finished, "\(daq.stderr.suffix(2000))")
        #expect(daq.finish() == 0, "\(daq.stderr.suffix(2000))")
        let stderr = daq.stderr
        #expect(stderr.split(separator: "\n").count < 200, "\(stderr.split(separator: "\n").count) lines on stderr")
        #expect(stderr.contains("… and 999,9"), "\(stderr.suffix(2000))")
        #expect(!stderr.contains("\u{1B}"), "an escape sequence reached the terminal")
        let out = dir.appendingPathComponent("out").path
        let run = try #require(try FileManager.default.contentsOfDirectory(atPath: out).first)
        let manifest = "\(out)/\(run)/manifest.json"
        let size = try #require(try FileManager.default.attributesOfItem(atPath: manifest)[.size] as? Int)
        let logs = try FileManager.default.contentsOfDirectory(atPath: "\(out)/\(run)").filter {
            $0.hasSuffix(".jsonl")
        }
        let data = try logs.map { try String(contentsOfFile: "\(out)/\(run)/\($0)", encoding: .utf8) }.joined()
        #expect(data.contains(#""x":1"#), "the sample after the flood was logged: \(data.prefix(500))")
        print("exec stderr flood: peak RSS \(peak) kB; manifest \(size) bytes")
        #expect(size < 16_384, "the manifest takes \(size) bytes")
        #expect(peak < 120 * 1024, "peak RSS \(peak) kB")
    }
}
