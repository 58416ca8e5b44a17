import DAQCore
import DAQTesting
import Foundation
import Testing

/// The shipped LSL pipelines, run inside a network namespace of the test's own: what
/// `lsl-outlet.yaml` publishes, `lsl-inlet.yaml` logs, every sample with its values and the
/// recording's spacing; pylsl reads the markers beside it.
@Suite("lsl pipelines", .serialized, .timeLimit(.minutes(15)))
struct LSLPipelinesTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    @Test func theInletPipelineLogsWhatTheOutletPipelinePublishes() throws {
        let ns = try LSLNamespace()
        let dir = ns.directory.path
        let daq = ServiceProcess.builtExecutable("daq")
        let pipelines = Self.root.appendingPathComponent("pipelines").path
        let inlet = try ns.start(
            [
                daq, "run", "\(pipelines)/lsl-inlet.yaml", "--status", "never", "--no-control", "--flush-interval",
                "0.05",
            ],
            environment: ["OUTPUT": "\(dir)/out", "TIMEOUT": "60"])
        let outlet = try ns.start(
            [daq, "run", "\(pipelines)/lsl-outlet.yaml", "--status", "never", "--no-control"],
            environment: [
                "SPEED": "10", "WAIT": "60", "INPUT": Self.root.appendingPathComponent("recordings/walk.csv").path,
            ])
        // The markers' consumer: with it and the inlet pipeline connected, the replay starts.
        let reader = try LSLOracles.write(LSLOracles.inlet, named: "inlet.py", in: ns.directory)
        let markers = try ns.start(["python3", reader, "lsl-outlet.out.markers", "\(dir)/markers.json", "\(dir)/stop"])
        try markers.waitForLine(timeout: 60) { $0 == "connected" }
        #expect(try outlet.waitForExit(timeout: 120) == 0, "\(outlet.errorOutput)")
        LSLTestFiles.touch("\(dir)/stop")
        try markers.waitForLine(timeout: 60) { $0 == "done" }

        let walk = try LSLSinkTests.walk()
        let logged = { () -> [Fields] in
            let runs = (try? FileManager.default.contentsOfDirectory(atPath: "\(dir)/out")) ?? []
            guard let run = runs.first else { return [] }
            let files = (try? FileManager.default.contentsOfDirectory(atPath: "\(dir)/out/\(run)")) ?? []
            guard let log = files.first(where: { $0.hasSuffix(".jsonl") }) else { return [] }
            return LSLTestFiles.lines("\(dir)/out/\(run)/\(log)").filter { $0["x"] != nil }
        }
        try LSLTestFiles.wait(60, for: "every sample in the inlet's log") { logged().count >= walk.count }
        inlet.send(SIGINT)
        #expect(try inlet.waitForExit(timeout: 60) == 0, "\(inlet.errorOutput)")

        let rows = logged()
        #expect(rows.count == walk.count)
        for (i, (row, w)) in zip(rows, walk).enumerated() {
            #expect([row["x"], row["y"], row["z"]].map { $0?.doubleValue } == [w[1], w[2], w[3]], "sample \(i)")
        }
        var worst = 0.0
        for (row, w) in zip(rows, walk) {
            guard let t = row["timestamp"]?.doubleValue, let t0 = rows[0]["timestamp"]?.doubleValue else { continue }
            worst = max(worst, abs((t - t0) - (w[0] - walk[0][0])))
        }
        #expect(worst < 0.001, "largest spacing difference \(worst) s")
        let pulled = try LSLTestFiles.json("\(dir)/markers.json")
        let texts = (pulled[member: "samples"]?.items ?? []).compactMap { $0.items.first?.items.first?.stringValue }
        #expect(
            texts.first == "start stand/start" && texts.contains("step walk/turn") && texts.last == "stop stand/end",
            "\(texts)")
    }
}
