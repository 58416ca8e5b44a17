import DAQCore
import DAQMotion
import DAQTesting
import Foundation
import Testing

/// `summary.daily` behind motion.replay and motion.enmo: the same table at every clock and
/// batch size, across London's 25-hour day.
@Suite(.timeLimit(.minutes(20))) struct DailySummaryPipelineTests {
    /// A wrist every 10 s from 2026-10-24 20:00 BST to 2026-10-26 04:00 GMT: moving by day,
    /// still by night, off the wrist for two hours on the Sunday afternoon.
    static func wristCSV() -> String {
        let start = 1_792_868_400.0
        var csv = "timestamp,x,y,z,nonwear\n"
        for i in 0..<(33 * 360) {
            let t = start + Double(i) * 10
            let hour = (t - 1_792_882_800) / 3_600
            let active = hour > 8 && hour < 22
            let a = active ? 0.3 * sin(Double(i) * 0.7) : 0.0
            let off = hour >= 14 && hour < 16
            csv += "\(Int(t)),\(a),\(0.1 * a),\(1 + a * 0.5),\(off)\n"
        }
        return recording("wrist.csv", csv)
    }

    static func yaml(_ csv: String) -> String {
        """
        name: daily
        clock: virtual
        sources:
          accel: {type: motion.replay, path: "\(csv)", time_unit: s}
        transforms:
          epochs: {type: motion.enmo, inputs: [accel], epoch: 60s, time_zone: Europe/London}
        sinks:
          daily: {type: summary.daily, inputs: [epochs], path: daily.csv, time_zone: Europe/London}
        """
    }

    /// Runs the pipeline once; returns the table's text.
    static func table(_ file: String, clock: ClockMode, batchSize: Int) throws -> String {
        let out = tempDirectory() + "/daily.csv"
        var overrides = ["clock=\(clock.rawValue)", "sinks.daily.path=\(out)"]
        if clock == .replay { overrides.append("speed=200000") }
        let registry = try PluginRegistry(MotionPlugins.all)
        let spec = try PipelineLoader(registry: registry, overrides: overrides).load(file: file)
        let run = try PipelineRun(spec: spec, options: RunOptions(batchSize: batchSize, flushInterval: 0))
        try run.start()
        let result = run.wait()
        try #require(result.failureLine == nil, "\(result)")
        return try String(contentsOfFile: out, encoding: .utf8)
    }

    @Test func everyClockAndBatchSizeGivesTheSameTable() throws {
        let dir = tempDirectory()
        let file = dir + "/daily.yaml"
        try Self.yaml(Self.wristCSV()).write(toFile: file, atomically: true, encoding: .utf8)
        let reference = try Self.table(file, clock: .virtual, batchSize: 4096)
        let lines = reference.split(separator: "\n")
        try #require(lines.count == 4, "a header and three days:\n\(reference)")
        #expect(lines[2].hasPrefix("2026-10-25,25,1500,25.0000,23.0000,false,"), "the 25-hour day: \(lines[2])")
        #expect(lines[1].hasPrefix("2026-10-24,24,240,4.0000,4.0000,true,"), "from 20:00: \(lines[1])")
        for (clock, size) in [(ClockMode.virtual, 1), (.virtual, 7), (.replay, 4096), (.replay, 7), (.replay, 1)] {
            #expect(
                try Self.table(file, clock: clock, batchSize: size) == reference, "\(clock) clock, batches of \(size)")
        }
    }

    /// Without `time_zone`, the days are the recording's: a GENEActiv file from a device clock at
    /// GMT +05:30 gives window starts at +05:30 (a 1 min window, so a short file has one).
    @Test func theDaysAreTheRecordingsWithoutATimeZone() throws {
        var w = GENEActivWriter()
        w.timeZone = "GMT +05:30"
        let path = tempDirectory() + "/zoned.bin"
        try w.write(to: path, pages: 4) { i in .init(x: 0, y: 0, z: 255 + i % 3) }
        func start(_ extra: String) throws -> String? {
            let out = tempDirectory() + "/daily.csv"
            let yaml = """
                name: zoned
                clock: virtual
                sources:
                  accel: {type: motion.replay, path: "\(path)"}
                transforms:
                  epochs: {type: motion.enmo, inputs: [accel], epoch: 1m}
                sinks:
                  daily: {type: summary.daily, inputs: [epochs], path: "\(out)", window: 1m\(extra)}
                """
            let outcome = try PipelineHarness.run(yaml: yaml, plugins: MotionPlugins.all)
            #expect(outcome.result.state == .finished)
            return try DailyTableText(csv: out).rows.first?["m5_start"]
        }
        #expect(try start("")?.hasSuffix("+05:30") == true)
        #expect(try start(", time_zone: UTC")?.hasSuffix("+00:00") == true, "time_zone overrides it")
    }
}
