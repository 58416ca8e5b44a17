import Foundation
import Testing

@testable import DAQInfoManager

@Suite(.timeLimit(.minutes(20))) struct ResolveCacheTests {
    static func answer(_ id: String, _ name: String) -> ElementAnswer {
        let element = Element(id: id, inputType: .barcode, content: [("en", ElementContent(name: name))])
        return ElementAnswer(element: element, language: "en", content: element.content[0].content)
    }

    static func isFresh(_ l: ResolveCache.Lookup?) -> Bool { if case .fresh = l { true } else { false } }
    static func isStale(_ l: ResolveCache.Lookup?) -> Bool { if case .stale = l { true } else { false } }

    @Test func withinTheTTLFreshAfterItStale() {
        let cache = ResolveCache(ttl: 60, maxEntries: 10)
        cache.store("a", answer: Self.answer("a", "A"), now: 1000)
        cache.store("none", answer: nil, now: 1000)
        #expect(Self.isFresh(cache.lookup("a", now: 1060)))
        #expect(Self.isStale(cache.lookup("a", now: 1060.5)))
        if case .fresh(let e) = cache.lookup("none", now: 1001) {
            #expect(e.answer == nil)
        } else {
            Issue.record("no entry")
        }
        #expect(cache.lookup("b", now: 1000) == nil)
    }

    @Test func aFullCacheDropsTheLeastRecentlyUsed() {
        let cache = ResolveCache(ttl: 60, maxEntries: 8)
        for i in 0..<8 { cache.store("\(i)", answer: nil, now: 0) }
        _ = cache.lookup("0", now: 0)  // used again: must survive
        cache.store("8", answer: nil, now: 0)
        #expect(cache.count <= 8)
        #expect(cache.lookup("0", now: 0) != nil && cache.lookup("8", now: 0) != nil)
        #expect(cache.lookup("1", now: 0) == nil)
    }

    @Test func aSecondRunReadsWhatTheFirstSaved() throws {
        let path = NSTemporaryDirectory() + "resolve-cache-\(UUID().uuidString)/cache.jsonl"
        let file = ResolveCacheFile(path: path, settings: "http://127.0.0.1:1 barcode en")
        let first = ResolveCache(ttl: 60, maxEntries: 10)
        first.store("4006381333931", answer: Self.answer("4006381333931", "Pencil"), now: 1000)
        first.store("unknown", answer: nil, now: 1001)
        try file.save(first.snapshot)
        #expect(!FileManager.default.fileExists(atPath: path + ".tmp-\(getpid())"))

        let loaded = file.load()
        #expect(loaded.damaged == 0 && loaded.ignored == nil && loaded.items.count == 2)
        let second = ResolveCache(ttl: 60, maxEntries: 10)
        second.restore(loaded.items)
        if case .fresh(let e) = second.lookup("4006381333931", now: 1010) {
            #expect(e.answer?.name == "Pencil")
        } else {
            Issue.record("lost")
        }
        #expect(Self.isFresh(second.lookup("unknown", now: 1010)))
    }

    @Test func otherSettingsOrDamageAreNotBelieved() throws {
        let path = NSTemporaryDirectory() + "resolve-cache-\(UUID().uuidString).jsonl"
        let cache = ResolveCache(ttl: 60, maxEntries: 10)
        cache.store("a", answer: nil, now: 0)
        try ResolveCacheFile(path: path, settings: "one").save(cache.snapshot)
        #expect(ResolveCacheFile(path: path, settings: "other").load().ignored == "made for 'one', not 'other'")

        var text = try String(contentsOfFile: path, encoding: .utf8)
        text += "{not json\n"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let loaded = ResolveCacheFile(path: path, settings: "one").load()
        #expect(loaded.damaged == 1 && loaded.items.map(\.id) == ["a"])

        try "garbage\n".write(toFile: path, atomically: true, encoding: .utf8)
        #expect(
            ResolveCacheFile(path: path, settings: "one").load().ignored == "not a daq resolver cache (no header line)")
    }
}
