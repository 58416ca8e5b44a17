import DAQCore
import DAQSampleLogger
import DAQTesting
import Foundation
import Testing

/// The layout of each format, checked by parsing the files back.
@Suite("Logger formats", .timeLimit(.minutes(20)))
struct LoggerFormatTests {
    /// Markers expected for steps `one` at 0 and `two` at 0.5 over samples at 0…0.9 s:
    /// start, the step change, stop; as (uptime, stepPath).
    static let markers: [(Double, String)] = [(0, "one"), (0.5, "two"), (0.9, "two")]

    /// The kinds of the 13 items of a 10-sample run, `m` marker, `d` data.
    static let shape = "mdddddmdddddm"

    func shape(_ items: [Value]) -> String {
        String(items.map { $0.object["timestampDate"] == nil ? "d" : "m" })
    }

    func checkItems(_ items: [Value], t0: Double = 1_700_000_000, dateOrigin: Double? = nil) throws {
        #expect(shape(items) == Self.shape)
        let markers = items.filter { $0.object["timestampDate"] != nil }
        #expect(markers.map { $0.object["marker"] } == [.string("start"), .string("step"), .string("stop")])
        for (marker, (uptime, path)) in zip(markers, Self.markers) {
            #expect(marker.keys == ["uptime", "stepPath", "timestampDate", "timestamp", "marker"])
            #expect(marker.object["uptime"] == .double(uptime) && marker.object["timestamp"] == .double(uptime))
            #expect(marker.object["stepPath"] == .string(path))
            #expect(marker.object["timestampDate"] == .string(ISODate.string((dateOrigin ?? t0) + uptime)))
        }
        let data = items.filter { $0.object["timestampDate"] == nil }
        for (i, item) in data.enumerated() {
            let uptime = Double(i) / 10
            #expect(item.keys == ["uptime", "timestamp", "stepPath", "seq", "value", "label"])
            #expect(item.object["uptime"] == .double(uptime))
            // Relative to t0 = first timestamp − its uptime, not seconds since 1970.
            #expect(abs((item.object["timestamp"]?.doubleValue ?? -1) - uptime) < 1e-6)
            #expect(item.object["stepPath"] == .string(uptime < 0.5 ? "one" : "two"))
            #expect(item.object["seq"] == .int(Int64(i)))
            #expect(item.object["value"] == .double(Double(i) + 1.0 / 3))
            #expect(item.object["label"] == .string("a,\"\(i)\""))
        }
    }

    @Test func aRecordingWhoseTimesCountFromZeroIsDatedAtTheRunStart() throws {
        let before = Date().timeIntervalSince1970 - 1
        let dir = try runLogger("logger.json", source: "count: 10, rate: 10, base: 0")
        let root = try parseJSON(dir + "/accel.json")
        let date = try #require(root.object["startDate"]?.stringValue)
        let parsed = try #require(ISO8601DateFormatter.withFractions.date(from: date))
        #expect(parsed.timeIntervalSince1970 >= before)
        try checkItems(root.object["items"]!.array, t0: 0, dateOrigin: parsed.timeIntervalSince1970)
    }

    @Test func jsonIsAnObjectWithStartDateAndStreamedItems() throws {
        let dir = try runLogger("logger.json")
        let root = try parseJSON(dir + "/accel.json")
        #expect(root.keys == ["startDate", "items"])
        #expect(root.object["startDate"] == .string(ISODate.string(1_700_000_000)))
        try checkItems(root.object["items"]!.array)
        let text = try readText(dir + "/accel.json")
        #expect(
            text.hasPrefix(
                "{\"startDate\":\"\(ISODate.string(1_700_000_000))\",\"items\":[\n{\"uptime\":0.0,\"stepPath\":\"one\"")
        )
        #expect(text.hasSuffix("}\n]}\n"))
        #expect(text.components(separatedBy: "},\n{").count == 13)
    }

    @Test func rootArrayHoldsTheItemsAlone() throws {
        let dir = try runLogger("logger.json", extra: ", root: array")
        let text = try readText(dir + "/accel.json")
        #expect(text.hasPrefix("[\n{") && text.hasSuffix("}\n]\n"))
        try checkItems(try parseJSON(dir + "/accel.json").array)
    }

    @Test func jsonLinesHoldsOneItemPerLine() throws {
        let dir = try runLogger("logger.jsonl")
        let lines = try readText(dir + "/accel.jsonl").split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 14 && lines.last == "")
        try checkItems(try lines.dropLast().map { try JSONParser.parse(Array($0.utf8)) })
    }

    @Test func csvHasAHeaderAndOneRowPerSampleMarkersIncluded() throws {
        let dir = try runLogger("logger.csv")
        let lines = try readText(dir + "/accel.csv").split(separator: "\n").map(String.init)
        #expect(lines.first == "uptime,timestamp,stepPath,timestampDate,marker,seq,value,label")
        #expect(lines.count == 14)
        #expect(lines[1] == "0.0,0.0,one,\(ISODate.string(1_700_000_000)),start,,,")
        #expect(lines[2] == "0.0,0.0,one,,,0,0.3333333333333333,\"a,\"\"0\"\"\"")
        // The relative time as the recording has it, not 0.09999990463256836 (RelativeTimeTests).
        #expect(lines[3] == "0.1,0.1,one,,,1,1.3333333333333333,\"a,\"\"1\"\"\"")
        #expect(lines[7] == "0.5,0.5,two,\(ISODate.string(1700000000.5)),step,,,")
        #expect(lines[13] == "0.9,0.9,two,\(ISODate.string(1700000000.9)),stop,,,")
    }

    @Test func decimalsFixFieldDoublesOnly() throws {
        let dir = try runLogger("logger.jsonl", extra: ", decimals: 2")
        let lines = try readText(dir + "/accel.jsonl").split(separator: "\n")
        #expect(lines[2].hasPrefix(#"{"uptime":0.1,"#))
        #expect(lines[2].contains(#","seq":1,"value":1.33,"label""#))
        let csv = try runLogger("logger.csv", extra: ", decimals: 3")
        #expect(try readText(csv + "/accel.csv").contains(",1,1.333,\"a,"))
    }

    @Test func eventsAreMarkedAndNullFieldsKept() throws {
        // Sample 0 is an event: it waits for the first data sample, which fixes t0.
        let dir = try runLogger(
            "logger.jsonl", source: "count: 10, rate: 10, base: 1700000000, event_at: 0, nulls: true")
        let items = try readText(dir + "/accel.jsonl").split(separator: "\n").map {
            try JSONParser.parse(Array($0.utf8))
        }
        #expect(items[0].object["timestampDate"] == .string(ISODate.string(1_700_000_000)))
        #expect(items[1].keys == ["uptime", "timestamp", "stepPath", "kind", "seq", "value", "label"])
        #expect(items[1].object["kind"] == .string("event"))
        // The sample has `label` as null: it stays null, it is not dropped.
        #expect(items[2].keys == ["uptime", "timestamp", "stepPath", "seq", "value", "label"])
        #expect(items[2].object["label"] == .null)
    }

    @Test func identifiersGiveOneFilePerStreamWithEveryMarker() throws {
        let base = tempDirectory()
        let yaml = """
            name: two
            clock: virtual
            steps: [{path: one, at: 0}, {path: two, at: 0.5}]
            sources:
              accel: {type: test.samples, count: 10, rate: 10, base: 1700000000}
              gyro: {type: test.samples, count: 10, rate: 10, base: 1700001000}
            sinks:
              log: {type: logger.json, inputs: [accel, gyro], directory: "\(base)", identifiers: {accel: acc}}
            """
        let outcome = try PipelineHarness.run(yaml: yaml, plugins: testPlugins)
        #expect(outcome.result.state == .finished)
        let dir = try runDirectory(under: base)
        #expect(
            Set(try FileManager.default.contentsOfDirectory(atPath: dir)) == ["acc.json", "gyro.json", "manifest.json"])
        try checkItems(try parseJSON(dir + "/acc.json").object["items"]!.array)
        // Each file has its own t0, from its own first sample.
        try checkItems(try parseJSON(dir + "/gyro.json").object["items"]!.array, t0: 1_700_001_000)
    }

    @Test(arguments: [
        ("logger.jsonl", ", root: array"),
        ("logger.json", ", identifiers: {accel: manifest}"),
        ("logger.json", ", decimals: 40"),
        ("logger.csv", ", identifiers: {accel: a/b}"),
    ])
    func badConfigurationIsRejected(_ type: String, _ extra: String) {
        #expect(throws: ConfigError.self) { try runLogger(type, extra: extra) }
    }
}

extension ISO8601DateFormatter {
    static var withFractions: ISO8601DateFormatter {
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return f
    }
}
