import DAQCore
import DAQMotion
import DAQTesting
import Foundation
import Testing

@Suite(.timeLimit(.minutes(20))) struct ReplayJSONTests {
    @Test func jsonLinesWithExtraKeys() throws {
        let text = """
            {"timestamp": 5.0, "x": 1, "y": 2, "z": 3, "sensor": "acc"}

            {"timestamp": 5.01, "x": 4, "y": 5, "z": 6, "sensor": "acc", "battery": 97}
            """
        let (samples, _) = try replayAll(recording("imu.jsonl", text))
        try #require(samples.count == 2)
        #expect(samples.map { $0.number("x") } == [1, 4])
        #expect(samples[0]["sensor"] == .string("acc") && samples[0]["battery"] == .null)
        #expect(samples[1]["battery"] == .int(97))
        #expect(close(samples[1].uptime, 0.01) && samples[1].timestamp == 5.01)
    }

    /// A log as SageResearch's `RSDRecordSampleLogger` writes it: start date, markers that
    /// carry no axes, items with step paths.
    static let sageLog = """
        {"startDate":"2024-03-01T12:00:00.000+00:00","items":[
        {"uptime":1000.0,"stepPath":"walk/outbound","timestampDate":"2024-03-01T12:00:00.000+00:00","timestamp":0},
        {"uptime":1000.0,"stepPath":"walk/outbound","timestamp":0,"sensorType":"userAcceleration","x":0.1,"y":0.2,"z":0.3},
        {"uptime":1000.01,"stepPath":"walk/outbound","timestamp":0.01,"sensorType":"gyro","x":9,"y":9,"z":9},
        {"uptime":1000.02,"stepPath":"walk/outbound","timestamp":0.02,"sensorType":"userAcceleration","x":0.4,"y":0.5,"z":0.6},
        {"uptime":1000.02,"stepPath":"walk/return","timestampDate":"2024-03-01T12:00:00.020+00:00","timestamp":0.02}
        ]}
        """

    @Test func sageResearchLogWithMarkersInOrder() throws {
        let (samples, _) = try replayAll(recording("accel.json", Self.sageLog))
        #expect(samples.map(\.kind) == [.marker, .data, .data, .data, .marker])
        #expect(
            samples.map(\.stepPath) == [
                "walk/outbound", "walk/outbound", "walk/outbound", "walk/outbound", "walk/return",
            ])
        #expect(samples[0]["x"] == .null && samples[1].number("x") == 0.1)
        // startDate plus the item's relative time.
        #expect(samples[1].timestamp == 1_709_294_400 && samples[3].timestamp == 1_709_294_400.02)
        #expect(samples.map(\.uptime) == [0, 0, 0.01, 0.02, 0.02])
        #expect(samples[1]["sensorType"] == .string("userAcceleration"))
    }

    @Test func sensorTypeKeepsOneSensor() throws {
        let (samples, _) = try replayAll(recording("accel.json", Self.sageLog), "sensor_type: userAcceleration")
        #expect(samples.filter { $0.kind == .data }.map { $0.number("x") } == [0.1, 0.4])
        #expect(samples.filter { $0.kind == .marker }.count == 2)
    }

    @Test func rootArrayPrettyPrintedWithBracketsInStrings() throws {
        let text = """
            [
              {
                "timestamp": 0,
                "note": "a ] and a } and an escaped \\" quote [",
                "x": 1, "y": 2, "z": 3
              },
              {"timestamp": 0.5, "note": "{", "x": 4, "y": 5, "z": 6}
            ]
            """
        let (samples, _) = try replayAll(recording("pretty.json", text))
        #expect(samples.map { $0.number("z") } == [3, 6])
        #expect(samples[0]["note"] == .string("a ] and a } and an escaped \" quote ["))
    }

    @Test func gzipSageResearchLog() throws {
        let gz = try gzip(recording("accel.json", Self.sageLog))
        let (samples, _) = try replayAll(gz)
        #expect(samples.count == 5)
    }

    @Test func logCutOffMidItemKeepsTheItemsBefore() throws {
        let cut = String(Self.sageLog.prefix(while: { $0 != "g" }))  // inside the gyro item
        let path = recording("crashed.json", cut + "gyro\",\"x\":9,")
        let (samples, error) = replayUntilFailure(try replay(path))
        #expect(samples.count == 2)
        let message = "\(try #require(error))"
        #expect(message == "\(path):4: the log is cut off inside an item (run 'daq repair' to close it)")
    }

    @Test func logCutOffBetweenItems() throws {
        let lines = Self.sageLog.split(separator: "\n")
        let path = recording("crashed.json", lines.prefix(3).joined(separator: "\n") + "\n")
        let (samples, error) = replayUntilFailure(try replay(path))
        #expect(samples.count == 2)
        #expect("\(try #require(error))".contains("cut off inside its items list"))
    }

    @Test func notJSONNamesTheLine() throws {
        let path = recording("bad.jsonl", "{\"t\": 0, \"x\": 1, \"y\": 1, \"z\": 1}\n{\"t\": 0.1, \"x\": 1,\n")
        let (samples, error) = replayUntilFailure(try replay(path))
        #expect(samples.count == 1)
        #expect("\(try #require(error))".hasPrefix("\(path):2: invalid JSON"))
    }

    @Test func missingAxesNameTheKeys() throws {
        let path = recording("noaxes.jsonl", "{\"t\": 0, \"x\": 1, \"y\": \"one\", \"z\": 1}\n")
        let (_, error) = replayUntilFailure(try replay(path))
        #expect("\(try #require(error))" == "\(path):1: expected numbers in 'x', 'y' and 'z'")
    }
}
