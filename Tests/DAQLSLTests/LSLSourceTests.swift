import DAQCore
import DAQTesting
import Foundation
import Testing

/// The `lsl` source against pylsl's outlets, in a network namespace of the test's own: every
/// sample and marker pylsl pushed arrives once, in order, with its values and its timestamp
/// (within 1 ms, after the clock mapping the manifest records), and an outlet restarted
/// mid-run leaves a gap that is reported and nothing twice.
@Suite("lsl source", .serialized, .timeLimit(.minutes(15)))
struct LSLSourceTests {
    static let channels = 8

    @Test func readsEverySampleAndMarkerOfPylslAcrossARestart() throws {
        let ns = try LSLNamespace()
        let dir = ns.directory.path
        let outlet = try LSLOracles.write(LSLOracles.outlet, named: "outlet.py", in: ns.directory)
        try """
        name: lsl-source-test
        clock: realtime
        sources:
          eeg: { type: lsl, name: TestEEG, timeout: 30 s }
          marks: { type: lsl, name: TestEEG-markers, timeout: 30 s }
        sinks:
          raw: { type: file, inputs: [eeg], path: \(dir)/eeg.jsonl, markers: false }
          rawmarks: { type: file, inputs: [marks], path: \(dir)/marks.jsonl, markers: false }
          log: { type: logger.jsonl, inputs: [eeg, marks], directory: \(dir)/out }
        """.write(toFile: "\(dir)/p.yaml", atomically: true, encoding: .utf8)

        // The first outlet is there before the run: the source finds it at start.
        let first = try ns.start(
            [
                "python3", outlet, "TestEEG", "test-eeg", "0", "1000", "500", "\(Self.channels)", "100",
                "\(dir)/a.json",
                "\(dir)/a.hold",
            ])
        try first.waitForLine { $0 == "ready" }
        let daq = try ns.start([
            ServiceProcess.builtExecutable("daq"), "run", "\(dir)/p.yaml", "--flush-interval", "0.05", "--status",
            "never", "--no-control",
        ])
        try first.waitForLine(timeout: 60) { $0 == "pushed" }
        try LSLTestFiles.wait(60, for: "sample 999 in eeg.jsonl") { Self.indices("\(dir)/eeg.jsonl").last == 999 }
        // The outlet goes; once the source has said so, a new one with the same source id comes.
        LSLTestFiles.touch("\(dir)/a.hold")
        try first.waitForExit(timeout: 30)
        try LSLTestFiles.wait(60, for: "the source to report the stream gone") {
            daq.errorOutput.split(separator: "\n").contains {
                $0.contains("'TestEEG' (type EEG") && $0.contains("is gone")
            }
        }
        let second = try ns.start(
            [
                "python3", outlet, "TestEEG", "test-eeg", "1000", "1000", "500", "\(Self.channels)", "100",
                "\(dir)/b.json",
                "\(dir)/b.hold",
            ])
        try second.waitForLine(timeout: 60) { $0 == "pushed" }
        try LSLTestFiles.wait(60, for: "sample 1999 in eeg.jsonl") { Self.indices("\(dir)/eeg.jsonl").last == 1999 }
        try LSLTestFiles.wait(30, for: "marker m1900 in marks.jsonl") {
            LSLTestFiles.lines("\(dir)/marks.jsonl").last?["marker"]?.stringValue == "m1900"
        }
        LSLTestFiles.touch("\(dir)/b.hold")
        daq.send(SIGINT)
        let status = try daq.waitForExit(timeout: 60)
        #expect(status == 0, "\(daq.errorOutput)")

        // What pylsl pushed, by index: its timestamps on its own LSL clock.
        var pushed: [Int: Double] = [:]
        var markers: [(String, Double)] = []
        for record in ["\(dir)/a.json", "\(dir)/b.json"] {
            let r = try LSLTestFiles.json(record)
            for s in r[member: "samples"]?.items ?? [] {
                pushed[Int(s.items[0].doubleValue!)] = s.items[1].doubleValue!
            }
            for m in r[member: "markers"]?.items ?? [] {
                markers.append((m.items[0].stringValue!, m.items[1].doubleValue!))
            }
        }
        #expect(pushed.count == 2000)

        let manifest = try LSLTestFiles.manifest(under: "\(dir)/out")
        let results = Value.object(manifest)[member: "results"]
        let shift = try #require(results?[member: "eeg"]?[member: "wall_minus_lsl_clock"]?.doubleValue)

        // Every sample once, in order, every value exact, its time pylsl's within 1 ms.
        let rows = LSLTestFiles.lines("\(dir)/eeg.jsonl")
        #expect(Self.indices("\(dir)/eeg.jsonl") == Array(0..<2000))
        var worst = 0.0
        for row in rows {
            let i = Int(row["C1"]!.doubleValue! / 0.25) / Self.channels
            for c in 0..<Self.channels {
                #expect(row["C\(c + 1)"]?.doubleValue == Double(i * Self.channels + c) * 0.25, "sample \(i) C\(c + 1)")
            }
            if let t = row["timestamp"]?.doubleValue, let p = pushed[i] { worst = max(worst, abs(t - shift - p)) }
        }
        #expect(worst < 0.001, "largest timestamp difference \(worst) s")

        // Every marker once, in order, as an event with its text and time.
        let marks = LSLTestFiles.lines("\(dir)/marks.jsonl")
        #expect(marks.map { $0["marker"]?.stringValue ?? "" } == markers.map(\.0))
        #expect(marks.allSatisfy { $0["kind"]?.stringValue == "event" })
        for (row, m) in zip(marks, markers) {
            #expect(abs(row["timestamp"]!.doubleValue! - shift - m.1) < 0.001, "\(m.0)")
        }

        // The restart: reported, with the gap between the last sample before it and the first after.
        #expect(daq.errorOutput.contains("the stream is back"), "\(daq.errorOutput)")
        let gaps = results?[member: "eeg"]?[member: "gaps"]?.items ?? []
        #expect(gaps.count == 1)
        if let gap = gaps.first, let before = pushed[999], let after = pushed[1000] {
            #expect(abs(gap[member: "from"]!.doubleValue! - shift - before) < 0.001)
            #expect(abs(gap[member: "to"]!.doubleValue! - shift - after) < 0.001)
        }
    }

    /// The sample indices of a file sink's rows, in file order (C1 holds 8·i·0.25).
    static func indices(_ path: String) -> [Int] {
        LSLTestFiles.lines(path).compactMap { $0["C1"]?.doubleValue }.map { Int($0 / 0.25) / channels }
    }
}
