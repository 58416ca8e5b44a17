import DAQCore
import Testing

/// Unknown keys inside a component and unknown plugin types, with did-you-mean and known types.
@Suite("Config: component keys and plugin types", .timeLimit(.minutes(20)))
struct ConfigComponentKeyTests {
    /// Source `src` whose line 5 is `line5`, then a printer sink reading it.
    static func withSourceLine(_ line5: String) -> String {
        "sources:\n  src:\n    type: ticker\n    rate: 10\n\(line5)\nsinks:\n  out:\n    type: printer\n    inputs: src\n"
    }

    @Test(arguments: [
        ("    rat: 3", "sources.src.rat", "unknown key 'rat' for source type 'ticker' (did you mean 'rate'?)"),
        ("    shap: sine", "sources.src.shap", "unknown key 'shap' for source type 'ticker' (did you mean 'shape'?)"),
        (
            "    colour: red", "sources.src.colour",
            "unknown key 'colour' for source type 'ticker'; see 'daq plugins describe ticker'"
        ),
        ("    inputs: other", "sources.src.inputs", "a source reads no other component, so it takes no 'inputs'"),
        ("    buffer: {size: 4}", "sources.src.buffer", "a source reads no other component, so it takes no 'buffer'"),
    ])
    func unknownSourceKey(_ line5: String, _ path: String, _ message: String) throws {
        let d = try V.single(Self.withSourceLine(line5))
        expectDiagnostic(d, line: 5, column: 5, path: path, message)
    }

    @Test func unknownSinkKeySuggestsCommonKey() throws {
        let yaml = V.minimal.replacingOccurrences(
            of: "    inputs: src\n", with: "    inputs: src\n    bufer: {size: 4}\n")
        let d = try V.single(yaml)
        expectDiagnostic(
            d, line: 9, column: 5, path: "sinks.out.bufer",
            "unknown key 'bufer' for sink type 'printer' (did you mean 'buffer'?); see 'daq plugins describe printer'")
    }

    @Test func unknownBufferKey() throws {
        let yaml = V.minimal.replacingOccurrences(
            of: "    inputs: src\n", with: "    inputs: src\n    buffer: {sise: 4}\n")
        let d = try V.single(yaml)
        expectDiagnostic(
            d, line: 9, column: 14, path: "sinks.out.buffer.sise",
            "unknown key 'sise' (did you mean 'size'?); expected size and when_full")
    }

    struct TypeCase: Sendable {
        var section: String
        var yaml: String
        var line: Int
        var column: Int
        var message: String
    }

    static let typeCases: [TypeCase] = [
        TypeCase(
            section: "source", yaml: V.minimal.replacingOccurrences(of: "type: ticker", with: "type: tickr"),
            line: 3, column: 11,
            message: "unknown source type 'tickr' (did you mean 'ticker'?); known source types: ticker"),
        TypeCase(
            section: "source", yaml: V.minimal.replacingOccurrences(of: "type: ticker", with: "type: printer"),
            line: 3, column: 11,
            message: "unknown source type 'printer'; 'printer' is a sink type; known source types: ticker"),
        TypeCase(
            section: "sink", yaml: V.minimal.replacingOccurrences(of: "type: printer", with: "type: colect"),
            line: 7, column: 11,
            message: "unknown sink type 'colect' (did you mean 'collect'?); known sink types: collect, printer"),
        TypeCase(
            section: "transform",
            yaml: V.minimal + "transforms:\n  win:\n    type: windw\n    inputs: src\n",
            line: 11, column: 11,
            message:
                "unknown transform type 'windw' (did you mean 'window'?); known transform types: passthrough, window"),
    ]

    @Test(arguments: typeCases)
    func unknownPluginType(_ c: TypeCase) throws {
        let all = try V.errors(c.yaml)
        try #require(all.count == 1, "\(all.map(\.description))")
        let name = ["source": "src", "sink": "out", "transform": "win"][c.section]!
        expectDiagnostic(all[0], line: c.line, column: c.column, path: "\(c.section)s.\(name).type", c.message)
    }

    @Test func missingTypeIsReportedAtTheComponentName() throws {
        let d = try V.single(V.minimal.replacingOccurrences(of: "    type: ticker\n", with: ""))
        expectDiagnostic(d, line: 2, column: 3, path: "sources.src", "missing required key 'type'")
    }

    @Test func componentThatIsNotAMapping() throws {
        let yaml = V.minimal + "transforms:\n  win: window\n"
        let d = try V.single(yaml)
        expectDiagnostic(
            d, line: 10, column: 8, path: "transforms.win", "expected a mapping with 'type', found a scalar")
    }

    @Test func componentNamesAreUniqueAcrossSections() throws {
        let yaml = V.minimal + "transforms:\n  src:\n    type: passthrough\n    inputs: src\n"
        let all = try V.errors(yaml)
        try #require(all.count == 1, "\(all.map(\.description))")
        expectDiagnostic(
            all[0], line: 10, column: 3, path: "transforms.src",
            "the name 'src' is already used by sources.src; names are unique across sections")
    }
}
