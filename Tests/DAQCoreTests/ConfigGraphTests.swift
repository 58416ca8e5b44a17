import DAQCore
import Testing

/// How components connect: inputs, self-reads, cycles, and the dead-end warnings.
@Suite("Config: component graph", .timeLimit(.minutes(20)))
struct ConfigGraphTests {
    static let source = "sources:\n  src:\n    type: ticker\n    rate: 1\n"  // lines 1-4

    @Test(arguments: [
        (
            "transforms", "transform",
            "transforms:\n  win:\n    type: passthrough\nsinks:\n  out: {type: printer, inputs: win}\n"
        ),
        ("sinks", "sink", "sinks:\n  win:\n    type: printer\n"),
    ])
    func withoutInputs(_ section: String, _ kind: String, _ rest: String) throws {
        let d = try V.single(Self.source + rest)
        expectDiagnostic(
            d, line: 6, column: 3, path: "\(section).win", "missing 'inputs': a \(kind) reads at least one component")
    }

    @Test(arguments: [
        ("srcc", 13, "unknown component 'srcc' (did you mean 'src'?)"),
        ("motion", 13, "unknown component 'motion'"),
        ("[src, sorc]", 19, "unknown component 'sorc' (did you mean 'src'?)"),
        ("[]", 13, "a sink reads at least one component"),
        ("{a: 1}", 13, "expected a component name or a list of names, found a mapping"),
    ])
    func badInputs(_ inputs: String, _ column: Int, _ message: String) throws {
        let d = try V.single(Self.source + "sinks:\n  out:\n    type: printer\n    inputs: \(inputs)\n")
        expectDiagnostic(d, line: 8, column: column, path: "sinks.out.inputs", message)
        if !message.contains("(did you mean") { #expect(!d.message.contains("did you mean")) }
    }

    @Test func componentReadingItself() throws {
        let yaml =
            Self.source
            + "transforms:\n  t:\n    type: passthrough\n    inputs: [src, t]\nsinks:\n  out: {type: printer, inputs: t}\n"
        let d = try V.single(yaml)
        expectDiagnostic(d, line: 8, column: 19, path: "transforms.t.inputs", "a transform cannot read its own output")
    }

    @Test func readingASink() throws {
        let yaml = Self.source + "sinks:\n  a: {type: printer, inputs: src}\n  b: {type: printer, inputs: a}\n"
        let d = try V.single(yaml)
        expectDiagnostic(
            d, line: 7, column: 30, path: "sinks.b.inputs", "'a' is a sink; sinks produce no output to read")
    }

    @Test func twoComponentCycle() throws {
        let yaml =
            Self.source + """
                transforms:
                  a:
                    type: passthrough
                    inputs: [src, b]
                  b:
                    type: passthrough
                    inputs: a
                sinks:
                  out: {type: printer, inputs: b}
                """
        let d = try V.single(yaml)
        expectDiagnostic(d, line: 11, column: 13, path: "transforms.b.inputs", "cycle: a → b → a")
    }

    @Test func threeComponentCycleReportedOnce() throws {
        let yaml =
            Self.source + """
                transforms:
                  a: {type: passthrough, inputs: [src, c]}
                  b: {type: passthrough, inputs: a}
                  c: {type: passthrough, inputs: b}
                sinks:
                  out: {type: printer, inputs: c}
                """
        let all = try V.diagnostics(yaml)
        try #require(all.count == 1, "\(all.map(\.description))")
        expectDiagnostic(all[0], line: 7, column: 34, path: "transforms.b.inputs", "cycle: a → b → c → a")
    }

    @Test func unreadSourceIsAWarning() throws {
        let yaml =
            Self.source + "  spare:\n    type: ticker\n    rate: 2\nsinks:\n  out: {type: printer, inputs: src}\n"
        let spec = try V.load(yaml)
        try #require(spec.warnings.count == 1)
        expectDiagnostic(
            spec.warnings[0], line: 5, column: 3, path: "sources.spare", "source is read by no component",
            severity: .warning)
        #expect(spec.warnings[0].description == "p.yaml:5:3: warning: sources.spare: source is read by no component")
        #expect(spec.components.map(\.name) == ["src", "spare", "out"])
    }

    @Test func transformWithNoPathToASink() throws {
        let yaml =
            Self.source + """
                transforms:
                  t1: {type: passthrough, inputs: src}
                  t2: {type: passthrough, inputs: t1}
                sinks:
                  out: {type: printer, inputs: src}
                """
        let spec = try V.load(yaml)
        try #require(spec.warnings.count == 2, "\(spec.warnings.map(\.description))")
        expectDiagnostic(
            spec.warnings[0], line: 6, column: 3, path: "transforms.t1",
            "no path from here to a sink: its samples are never written", severity: .warning)
        expectDiagnostic(
            spec.warnings[1], line: 7, column: 3, path: "transforms.t2",
            "output is read by no component", severity: .warning)
    }

    @Test func warningsTravelWithErrors() throws {
        let yaml = Self.source + "  spare: {type: ticker, rate: 2}\nsinks:\n  out: {type: printer, inputs: srcc}\n"
        let all = try V.diagnostics(yaml)
        #expect(all.map(\.severity) == [.warning, .warning, .error], "\(all.map(\.description))")
        #expect(all.map(\.line) == [2, 5, 7])
    }
}
