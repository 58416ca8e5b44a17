import DAQCore
import Testing

/// Unknown top-level keys, with a did-you-mean when the key is a typo.
@Suite("Config: top-level keys", .timeLimit(.minutes(20)))
struct ConfigTopLevelKeyTests {
    static let expected = "expected one of: name, clock, speed, steps, metrics, sources, transforms, sinks"

    @Test(arguments: [
        ("sourcse", "sources"), ("transfroms", "transforms"), ("snks", "sinks"), ("clok", "clock"),
        ("sped", "speed"), ("stesp", "steps"), ("Name", "name"),
    ])
    func typoSuggestsKey(_ typo: String, _ suggestion: String) throws {
        let d = try V.single(V.minimal + "\(typo): 1\n")
        expectDiagnostic(
            d, line: 9, column: 1, path: typo,
            "unknown top-level key '\(typo)' (did you mean '\(suggestion)'?); \(Self.expected)")
    }

    @Test(arguments: ["foo", "pipeline", "version"])
    func unrelatedKeyHasNoSuggestion(_ key: String) throws {
        let d = try V.single(V.minimal + "\(key): x\n")
        #expect(d.message == "unknown top-level key '\(key)'; \(Self.expected)")
        #expect(d.line == 9 && d.column == 1)
    }

    @Test func misspeltSourcesAlsoReportsMissingSources() throws {
        let yaml = """
            sinks:
              out: {type: printer, inputs: src}
            sourcse:
              src: {type: ticker, rate: 1}
            """
        let all = try V.errors(yaml)
        try #require(all.count == 3, "\(all.map(\.description))")
        // The missing section is reported at the document start; the unknown input at its node.
        expectDiagnostic(
            all[0], line: 1, column: 1, path: "sources", "missing 'sources': a pipeline needs at least one source")
        expectDiagnostic(all[1], line: 2, column: 32, path: "sinks.out.inputs", "unknown component 'src'")
        expectDiagnostic(all[2], line: 3, column: 1, path: "sourcse", "(did you mean 'sources'?)")
    }

    @Test func emptySectionsNeedAComponent() throws {
        let all = try V.errors("sources: {}\nsinks: {}\n")
        try #require(all.count == 2)
        expectDiagnostic(all[0], line: 1, column: 10, path: "sources", "a pipeline needs at least one source")
        expectDiagnostic(all[1], line: 2, column: 8, path: "sinks", "a pipeline needs at least one sink")
    }

    @Test func validMinimalPipelineLoads() throws {
        let spec = try V.load(V.minimal + "name: demo\nclock: virtual\nspeed: 4\n")
        #expect(spec.name == "demo")
        #expect(spec.clock == .virtual)
        #expect(spec.speed == 4)
        #expect(spec.components.map(\.name) == ["src", "out"])
        #expect(spec.warnings.isEmpty)
    }
}
