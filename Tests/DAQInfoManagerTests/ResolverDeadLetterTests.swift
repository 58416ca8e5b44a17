import DAQCore
import DAQTesting
import Foundation
import Testing

/// `on_error` for `infomanager.resolve`: lookups that failed with nothing cached, and elements
/// the sink's file refused, over real HTTP on loopback.
@Suite("infomanager.resolve on_error", .timeLimit(.minutes(20)))
struct ResolverDeadLetterTests {
    static let ids = ["good-1", "bad-1", "nope", "bad-2", "good-2"]

    /// Answers `bad-…` with 503 on every attempt, `nope` with 404, anything else with an element.
    static func flakyService() throws -> TestHTTPServer {
        try TestHTTPServer { path, _ in
            let id = TestHTTPServer.id(of: path)
            if id.hasPrefix("bad") { return .respond(status: 503, body: []) }
            if id == "nope" { return .respond(status: 404, body: []) }
            return .respond(status: 200, body: TestHTTPServer.element(id))
        }
    }

    static func settings(_ url: String, _ policy: ErrorPolicy) -> String {
        "base_url: \(url)\nretries: 1\nbackoff: 10ms\ntimeout: 20s\non_error: \(policy.rawValue)"
    }

    /// The `id` and `state` of every element in the sink's file.
    static func elements(_ path: String) throws -> [(id: String?, state: String?)] {
        try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map { line in
            guard case .object(let f) = try JSONParser.parse(Array(line.utf8)) else { return (nil, nil) }
            return (f["id"]?.stringValue, f["state"]?.stringValue)
        }
    }

    static func stage(_ out: PipelineHarness.Outcome) -> StageStatistics {
        out.result.stages.first { $0.name == "resolve" }!
    }

    /// Dead letters carry the sample as it came (no resolved fields), the error and the component.
    static func expectDeadLetters(_ out: PipelineHarness.Outcome, ids: [String], n: [Double], error: String) {
        let dead = out.data("dead")
        #expect(dead.map { $0["id"]?.stringValue } == ids, "\(dead)")
        #expect(dead.map { $0["n"]?.doubleValue } == n)
        #expect(dead.map(\.uptime) == n.map { $0 / 100 }, "the samples keep their own time")
        for letter in dead {
            #expect(letter.stream == "resolve.dead" && letter["component"] == .string("resolve"))
            #expect(letter["error"]?.stringValue?.contains(error) == true, "\(letter)")
            #expect(letter["resolve_state"] == nil)
        }
    }

    @Test(arguments: [ErrorPolicy.deadLetter, .skip, .stop])
    func transformFailedLookupsFollowThePolicyAndStopKeepsThemUnresolved(policy: ErrorPolicy) throws {
        let dir = try ResolverFixtures.scratch()
        let server = try Self.flakyService()
        defer { server.stop() }
        let out = try ResolverFixtures.resolve(
            Self.ids, settings: Self.settings(server.url, policy), in: dir, deadLetters: policy == .deadLetter)
        #expect(out.result.state == .finished, "\(out.result.failure ?? "")")
        #expect(server.paths.count == 7, "each bad id asked twice (retries: 1)")
        switch policy {
        case .stop:
            #expect(out.strings("id") == Self.ids)
            #expect(out.strings("resolve_state") == ["RESOLVED", "UNRESOLVED", "NODATA", "UNRESOLVED", "RESOLVED"])
        case .skip:
            #expect(out.strings("id") == ["good-1", "nope", "good-2"])
            #expect(out.strings("resolve_state") == ["RESOLVED", "NODATA", "RESOLVED"])
            #expect(ResolverFixtures.messages(out).contains { $0.hasPrefix("skipped 2 sample(s): HTTP 503") })
        case .deadLetter:
            #expect(out.strings("id") == ["good-1", "nope", "good-2"])
            Self.expectDeadLetters(out, ids: ["bad-1", "bad-2"], n: [1, 3], error: "HTTP 503")
        }
    }

    @Test func duringAnOutageEverySampleIsADeadLetterNotOnlyTheOneThatAsked() throws {
        let dir = try ResolverFixtures.scratch()
        let port = try ResolverFixtures.closedPort()
        let ids = (0..<200).map { "id-\($0)" }
        let out = try ResolverFixtures.resolve(
            ids, settings: Self.settings("http://127.0.0.1:\(port)", .deadLetter), in: dir, deadLetters: true)
        #expect(out.result.state == .finished, "\(out.result.failure ?? "")")
        #expect(out.data("out").isEmpty)
        let dead = out.data("dead")
        // Grouped by reason: the order is the input's only while every failure reads the same.
        #expect(Set(dead.compactMap { $0["id"]?.stringValue }) == Set(ids) && dead.count == ids.count)
        #expect(dead.allSatisfy { $0["component"] == .string("resolve") })
        #expect(dead.allSatisfy { $0["error"]?.stringValue?.contains("connection refused") == true })
    }

    @Test func aCachedAnswerStillPassesWhileTheServiceIsDown() throws {
        let dir = try ResolverFixtures.scratch()
        let cache = dir.appendingPathComponent("cache.jsonl").path
        let server = try Self.flakyService()
        let settings = Self.settings(server.url, .deadLetter) + "\ncache: {ttl: 0, path: \(cache)}"
        _ = try ResolverFixtures.resolve(["k1"], settings: settings, in: dir, deadLetters: true)
        server.stop()
        let out = try ResolverFixtures.resolve(["k1", "k2"], settings: settings, in: dir, deadLetters: true)
        #expect(out.strings("id") == ["k1"])
        #expect(out.strings("resolve_state") == ["CACHED"])
        Self.expectDeadLetters(out, ids: ["k2"], n: [1], error: "cannot reach \(server.url)")
    }

    @Test(arguments: [ErrorPolicy.deadLetter, .skip, .stop])
    func sinkFailedLookupsFollowThePolicyAndStopWritesThemUnresolved(policy: ErrorPolicy) throws {
        let dir = try ResolverFixtures.scratch()
        let server = try Self.flakyService()
        defer { server.stop() }
        let path = dir.appendingPathComponent("elements.jsonl").path
        let out = try ResolverFixtures.resolve(
            Self.ids, settings: Self.settings(server.url, policy) + "\npath: \(path)", in: dir, sink: true,
            deadLetters: policy == .deadLetter)
        #expect(out.result.state == .finished, "\(out.result.failure ?? "")")
        let elements = try Self.elements(path)
        let sink = Self.stage(out)
        if policy == .stop {
            #expect(elements.map(\.id) == Self.ids)
            #expect(elements.map(\.state) == ["RESOLVED", "UNRESOLVED", "NODATA", "UNRESOLVED", "RESOLVED"])
            #expect(sink.delivered == 5 && sink.failed == 0)
            return
        }
        #expect(elements.map(\.id) == ["good-1", "nope", "good-2"])
        #expect(elements.map(\.state) == ["RESOLVED", "NODATA", "RESOLVED"])
        // Sent: five samples and two markers; of the five ids, three delivered and two failed.
        #expect(sink.sent == 7 && sink.delivered == 3 && sink.failed == 2, "\(sink)")
        if policy == .skip {
            // One report per answer that arrived, so one or two of them.
            #expect(ResolverFixtures.messages(out).contains { $0.hasPrefix("skipped") && $0.contains("HTTP 503") })
        } else {
            Self.expectDeadLetters(out, ids: ["bad-1", "bad-2"], n: [1, 3], error: "HTTP 503")
        }
    }

    @Test(arguments: [ErrorPolicy.deadLetter, .skip, .stop])
    func sinkElementsTheFileRefusesFollowThePolicy(policy: ErrorPolicy) throws {
        let dir = try ResolverFixtures.scratch()
        let (server, url) = try ResolverFixtures.referenceServer(elements: ResolverReferenceTests.elements, in: dir)
        defer { server.stop() }
        // Every write to /dev/full fails with ENOSPC: a full disk, for real, at write time.
        let out = try ResolverFixtures.resolve(
            ["4006381333931", "nope"], settings: "base_url: \(url)\npath: /dev/full\non_error: \(policy.rawValue)",
            in: dir, sink: true, deadLetters: policy == .deadLetter)
        let full = "/dev/full: No space left on device"
        if policy == .stop {
            #expect(out.result.state == .failed)
            #expect(out.result.failure?.contains(full) == true, "\(out.result.failure ?? "")")
            return
        }
        #expect(out.result.state == .finished, "\(out.result.failure ?? "")")
        let sink = Self.stage(out)
        #expect(sink.delivered == 0 && sink.failed == 2, "\(sink)")
        if policy == .skip {
            #expect(ResolverFixtures.messages(out).contains { $0.contains("skipped") && $0.contains(full) })
        } else {
            Self.expectDeadLetters(out, ids: ["4006381333931", "nope"], n: [0, 1], error: full)
        }
    }
}
