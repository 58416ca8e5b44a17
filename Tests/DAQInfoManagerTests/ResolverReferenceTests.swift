import DAQCore
import DAQTesting
import Foundation
import Testing

/// `infomanager.resolve` against the real reference server (`daq resolver serve`) on loopback.
@Suite("infomanager.resolve against the reference server", .timeLimit(.minutes(20)))
struct ResolverReferenceTests {
    static let elements = """
        elements:
          - id: "4006381333931"
            input_type: barcode
            content:
              en: { name: Pencil, description: HB pencil, url: "https://example.org/p/1" }
              de: { name: Bleistift, description: HB-Bleistift }
          - id: "a/b?c d"
            input_type: barcode
            content:
              en-US: { name: Slashed }
          - id: "Grüße 👋"
            input_type: barcode
            content:
              fr: { name: Salutations }
              de-AT: { name: Grüß Gott }
          - id: "%41+&="
            input_type: barcode
            content:
              en: { name: Literal percent }
          - id: "04:A2:2B:1A"
            input_type: nfc
            content:
              en: { name: Door tag }
        news:
          en-GB: Maintenance on Sunday
        """

    @Test func resolvedNoDataAndCachedStates() throws {
        let dir = try ResolverFixtures.scratch()
        let (server, url) = try ResolverFixtures.referenceServer(elements: Self.elements, in: dir)
        defer { server.stop() }
        // The third sample repeats the first: in a later batch it is served from the cache.
        let out = try ResolverFixtures.resolve(["4006381333931", "nope"], settings: "base_url: \(url)", in: dir)
        #expect(out.result.state == .finished)
        #expect(out.strings("resolve_state") == ["RESOLVED", "NODATA"])
        #expect(out.strings("name") == ["Pencil", nil])
        #expect(out.strings("url") == ["https://example.org/p/1", nil])
        #expect(out.strings("language") == ["en", nil])
    }

    @Test func disabledPassesEverySampleUnresolved() throws {
        let dir = try ResolverFixtures.scratch()
        let out = try ResolverFixtures.resolve(
            ["4006381333931", "x"], settings: "base_url: http://127.0.0.1:9\nenabled: false", in: dir)
        #expect(out.result.state == .finished, "\(out.result.failure ?? "")")
        #expect(out.strings("resolve_state") == ["UNRESOLVED", "UNRESOLVED"])
        #expect(out.data("out").count == 2)
    }

    @Test(arguments: [
        ("[de, en]", "4006381333931", "de", "Bleistift"),
        ("[fr, en-GB]", "4006381333931", "en", "Pencil"),  // fr missing; en-GB falls back to en
        ("[en]", "a/b?c d", "en-US", "Slashed"),  // a regional variant of the language asked for
        ("[de]", "Grüße 👋", "de-AT", "Grüß Gott"),
        ("[ja, it]", "Grüße 👋", "fr", "Salutations"),  // none listed: the element's first language
        ("\"it,de\"", "Grüße 👋", "de-AT", "Grüß Gott"),  // comma-separated text as ${LANGUAGES} gives it
    ])
    func languageFallbackOrder(languages: String, id: String, language: String, name: String) throws {
        let dir = try ResolverFixtures.scratch()
        let (server, url) = try ResolverFixtures.referenceServer(elements: Self.elements, in: dir)
        defer { server.stop() }
        let out = try ResolverFixtures.resolve([id], settings: "base_url: \(url)\nlanguages: \(languages)", in: dir)
        #expect(out.strings("language") == [language])
        #expect(out.strings("name") == [name])
        #expect(out.strings("resolve_state") == ["RESOLVED"])
    }

    @Test func idsWithSlashQuerySpacePercentAndNonASCIIAreEscaped() throws {
        let dir = try ResolverFixtures.scratch()
        let (server, url) = try ResolverFixtures.referenceServer(elements: Self.elements, in: dir)
        defer { server.stop() }
        let out = try ResolverFixtures.resolve(["a/b?c d", "Grüße 👋", "%41+&="], settings: "base_url: \(url)", in: dir)
        #expect(out.strings("resolve_state") == ["RESOLVED", "RESOLVED", "RESOLVED"])
        #expect(out.strings("name") == ["Slashed", "Salutations", "Literal percent"])
    }

    @Test func inputTypeIsSentAndAnAnswerOfAnotherTypeIsAWarningNamingTheId() throws {
        let dir = try ResolverFixtures.scratch()
        let (server, url) = try ResolverFixtures.referenceServer(elements: Self.elements, in: dir)
        defer { server.stop() }
        // "04:A2:2B:1A" is an nfc element; the resolver asks for barcodes.
        let out = try ResolverFixtures.resolve(
            ["04:A2:2B:1A", "4006381333931"], settings: "base_url: \(url)\ninput_type: barcode", in: dir)
        #expect(out.strings("resolve_state") == ["UNRESOLVED", "RESOLVED"])
        #expect(out.strings("name") == [nil, "Pencil"])
        #expect(
            ResolverFixtures.messages(out).contains(
                "'04:A2:2B:1A': the service answered '04:A2:2B:1A' with input_type nfc, not barcode"),
            "\(ResolverFixtures.messages(out))")
        let nfc = try ResolverFixtures.resolve(["04:A2:2B:1A"], settings: "base_url: \(url)\ninput_type: nfc", in: dir)
        #expect(nfc.strings("resolve_state") == ["RESOLVED"])
        // What goes over the wire.
        let recorder = try TestHTTPServer { path, _ in .respond(status: 404, body: Array(#"{"error":"no"}"#.utf8)) }
        defer { recorder.stop() }
        _ = try ResolverFixtures.resolve(["x"], settings: "base_url: \(recorder.url)\ninput_type: beacon", in: dir)
        // Unset (ids of mixed kinds): nothing is sent, and any type is taken.
        _ = try ResolverFixtures.resolve(["y"], settings: "base_url: \(recorder.url)", in: dir)
        #expect(recorder.paths == ["/v1/elements/x?lang=en&input_type=beacon", "/v1/elements/y?lang=en"])
        let mixed = try ResolverFixtures.resolve(
            ["04:A2:2B:1A", "4006381333931"], settings: "base_url: \(url)", in: dir)
        #expect(mixed.strings("resolve_state") == ["RESOLVED", "RESOLVED"])
    }

    @Test func bearerTokenIsSentAndAMissingOneIsReported() throws {
        // A variable the test process has (none is set here: the suite runs in parallel).
        let token = try #require(SetVariables.pick(1).first, "no variable in the environment to carry a token")
        let dir = try ResolverFixtures.scratch()
        let (server, url) = try ResolverFixtures.referenceServer(
            elements: Self.elements, in: dir, arguments: ["--token-env", "IM_TOKEN"],
            environment: ["IM_TOKEN": token.value])
        defer { server.stop() }
        let ok = try ResolverFixtures.resolve(
            ["4006381333931"], settings: "base_url: \(url)\ntoken_env: \(token.name)", in: dir)
        #expect(ok.strings("resolve_state") == ["RESOLVED"])
        let denied = try ResolverFixtures.resolve(["4006381333931"], settings: "base_url: \(url)", in: dir)
        #expect(denied.strings("resolve_state") == ["UNRESOLVED"])
        #expect(ResolverFixtures.messages(denied).contains { $0.contains("HTTP 401") })
    }

    @Test func sinkWritesOneElementPerIdInFirstSeenOrder() throws {
        let dir = try ResolverFixtures.scratch()
        let (server, url) = try ResolverFixtures.referenceServer(elements: Self.elements, in: dir)
        defer { server.stop() }
        let path = dir.appendingPathComponent("elements.jsonl").path
        let out = try ResolverFixtures.resolve(
            ["4006381333931", "nope", "4006381333931", "a/b?c d"],
            settings: "base_url: \(url)\npath: \(path)\nlanguages: [de]", in: dir, sink: true)
        #expect(out.result.state == .finished, "\(out.result.failure ?? "")")
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 3)
        let parsed = try lines.map { try JSONParser.parse(Array($0.utf8)) }
        func field(_ v: Value, _ key: String) -> Value? {
            if case .object(let f) = v { return f[key] }
            return nil
        }
        #expect(parsed.map { field($0, "id")?.stringValue } == ["4006381333931", "nope", "a/b?c d"])
        #expect(parsed.map { field($0, "state")?.stringValue } == ["RESOLVED", "NODATA", "RESOLVED"])
        #expect(field(field(parsed[0], "data")!, "name")?.stringValue == "Bleistift")
        #expect(field(parsed[1], "data") == .null)
        #expect(field(field(parsed[0], "input")!, "id")?.stringValue == "4006381333931")
        let sink = out.result.stages.first { $0.name == "resolve" }!
        #expect(sink.delivered == 3)
    }
}
