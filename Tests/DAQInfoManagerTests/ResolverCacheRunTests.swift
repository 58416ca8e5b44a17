import DAQCore
import DAQTesting
import Foundation
import Testing

/// The resolver's cache across batches and runs, and with the service gone.
@Suite("infomanager.resolve cache", .timeLimit(.minutes(20)))
struct ResolverCacheRunTests {
    @Test func persistsAcrossRunsAndAnswersWhileTheServiceIsDown() throws {
        let dir = try ResolverFixtures.scratch()
        let cache = dir.appendingPathComponent("cache.jsonl").path
        var (server, url) = try ResolverFixtures.referenceServer(in: dir)
        let settings = "base_url: \(url)\ncache: {ttl: 1h, path: \(cache)}"
        let first = try ResolverFixtures.resolve(["04006381333931", "00000000000000"], settings: settings, in: dir)
        #expect(first.strings("resolve_state") == ["RESOLVED", "NODATA"])
        server.stop()
        // Run two: the service is gone, the file answers within the TTL without asking.
        let second = try ResolverFixtures.resolve(["04006381333931", "00000000000000"], settings: settings, in: dir)
        #expect(second.strings("resolve_state") == ["CACHED", "NODATA"])
        #expect(second.strings("name") == ["Pencil"] + [nil])
        #expect(ResolverFixtures.messages(second).contains { $0.contains("2 answer(s) loaded") })
        // Another service URL: the file was made for other settings and is not used.
        (server, url) = try ResolverFixtures.referenceServer(in: dir)
        defer { server.stop() }
        let other = try ResolverFixtures.resolve(
            ["04006381333931"], settings: "base_url: \(url)\ncache: {path: \(cache)}", in: dir)
        #expect(other.strings("resolve_state") == ["RESOLVED"])
        #expect(ResolverFixtures.messages(other).contains { $0.contains("not used: made for") })
    }

    @Test func anExpiredEntryIsAskedAgainAndServesOnlyWhenTheServiceIsDown() throws {
        let dir = try ResolverFixtures.scratch()
        let cache = dir.appendingPathComponent("cache.jsonl").path
        let hits = try TestHTTPServer { path, _ in
            .respond(status: 200, body: TestHTTPServer.element(TestHTTPServer.id(of: path)))
        }
        defer { hits.stop() }
        let settings = "base_url: \(hits.url)\ncache: {ttl: 0, path: \(cache)}"
        _ = try ResolverFixtures.resolve(["k1"], settings: settings, in: dir)
        let again = try ResolverFixtures.resolve(["k1"], settings: settings, in: dir)
        #expect(again.strings("resolve_state") == ["RESOLVED"])
        #expect(hits.paths.count == 2, "an expired entry is asked for again")
        hits.stop()
        let stale = try ResolverFixtures.resolve(["k1", "k2"], settings: settings + "\nretries: 0", in: dir)
        #expect(stale.strings("resolve_state") == ["CACHED", "UNRESOLVED"])
        #expect(stale.strings("name") == ["Thing", nil])
    }

    @Test func requestsForOneIdAreMergedAndLaterOnesHitTheCache() throws {
        let dir = try ResolverFixtures.scratch()
        let server = try TestHTTPServer { path, _ in
            .respond(status: 200, body: TestHTTPServer.element(TestHTTPServer.id(of: path)))
        }
        defer { server.stop() }
        // One sample per batch: those before the answer join the request in flight, those
        // after it find the answer in the cache; either way the service is asked once.
        let out = try ResolverFixtures.resolve(
            Array(repeating: "same", count: 50), settings: "base_url: \(server.url)", in: dir, batchSize: 1)
        #expect(server.paths.count == 1)
        #expect(out.strings("resolve_state").first == "RESOLVED")
        #expect(out.strings("resolve_state").allSatisfy { $0 == "RESOLVED" || $0 == "CACHED" })
        #expect(out.strings("name").allSatisfy { $0 == "Thing" })
        #expect(ResolverFixtures.messages(out).contains { $0.hasPrefix("1 request(s)") })
    }
}
