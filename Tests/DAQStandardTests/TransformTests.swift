import DAQCore
import DAQStandard
import DAQTesting
import Testing

@Suite("Standard transforms", .timeLimit(.minutes(20)))
struct TransformTests {
    func samples(_ values: [(Double, Double)], key: [String]? = nil) -> [Sample] {
        values.enumerated().map { i, p in
            var f: Fields = ["v": .double(p.1)]
            if let key { f["k"] = .string(key[i]) }
            // Times since the recording began, as a replayed CSV of elapsed seconds has them.
            return Sample(timestamp: p.0, uptime: p.0, fields: f)
        }
    }

    @Test func tumblingWindowClosesOnDataTimeAndFlushesAtTheEnd() throws {
        let h = try TransformHarness(
            WindowTransform.self, config: "size: 1\nfield: v\nstats: [count, mean, min, max, std, first, last]")
        var out = try h.push(samples([(0.0, 1), (0.5, 3), (0.999, 5)]))
        #expect(out.isEmpty)
        out = try h.push(samples([(1.0, 10), (2.5, 20)]))
        #expect(out.count == 2)
        #expect(out[0]["count"] == .int(3))
        #expect(out[0]["v_mean"] == .double(3))
        #expect(out[0]["v_min"] == .double(1))
        #expect(out[0]["v_max"] == .double(5))
        #expect(out[0]["v_std"] == .double(2))
        #expect(out[0]["v_first"] == .double(1) && out[0]["v_last"] == .double(5))
        #expect(out[0].uptime == 1 && out[1].uptime == 2 && out[1]["count"] == .int(1))
        let rest = try h.finish()
        #expect(rest.map(\.uptime) == [3])
        #expect(rest[0]["v_mean"] == .double(20))
    }

    @Test func slidingWindowsOverlapAndGroupsAreSeparate() throws {
        let h = try TransformHarness(
            WindowTransform.self, config: "size: 1\nslide: 0.5\nfield: v\nstats: [count]\ngroup_by: k")
        let out = try h.push(samples([(0.1, 1), (0.6, 2), (0.7, 3), (1.2, 4)], key: ["a", "a", "b", "a"]))
        // Window [0,1) closes at 1.2; [0.5,1.5) is still open.
        #expect(out.map { "\($0["k"]!.stringValue!)=\($0["count"]!.intValue!)" } == ["a=2", "b=1"])
        let rest = try h.finish()
        #expect(
            rest.map { "\($0["window_start"]!.doubleValue!) \($0["k"]!.stringValue!)=\($0["count"]!.intValue!)" } == [
                "0.5 a=2", "0.5 b=1", "1.0 a=1",
            ])
    }

    @Test(arguments: [
        "size: 0\nfield: v", "size: -1\nfield: v", "size: 1\nslide: 2\nfield: v", "size: 1\nstats: [mean]",
    ])
    func windowRejectsBadConfigurations(_ yaml: String) {
        #expect(throws: ConfigIssue.self) { _ = try TransformHarness(WindowTransform.self, config: yaml) }
    }

    @Test func throttleKeepsAtMostRatePerSecondOfDataTime() throws {
        let h = try TransformHarness(ThrottleTransform.self, config: "rate: 10")
        let input = (0..<100).map { Sample(uptime: Double($0) / 100, fields: ["i": .int(Int64($0))]) }
        let out = try h.push(input)
        #expect(out.count == 10)
        #expect(out.map { $0["i"]!.intValue! } == Array(stride(from: 0, to: 100, by: 10)))
    }

    @Test func selectKeepsOrderOrDropsAndRenameRenames() throws {
        let input = [Sample(uptime: 0, fields: ["a": 1, "b": 2, "c": 3])]
        let keep = try TransformHarness(SelectTransform.self, config: "fields: [c, a]").push(input)
        #expect(keep[0].fields.keys == ["c", "a"])
        let drop = try TransformHarness(SelectTransform.self, config: "drop: [b]").push(input)
        #expect(drop[0].fields.keys == ["a", "c"])
        let renamed = try TransformHarness(RenameTransform.self, config: "fields: {a: x}").push(input)
        #expect(renamed[0].fields.keys == ["x", "b", "c"])
        #expect(throws: ConfigIssue.self) { _ = try TransformHarness(SelectTransform.self, config: "{}") }
    }
}
