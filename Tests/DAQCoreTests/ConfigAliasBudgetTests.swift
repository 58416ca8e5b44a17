import DAQCore
import Foundation
import Testing

/// Aliases that multiply ("billion laughs") are refused from the file's own size, before any
/// walk pays for the expansion; ordinary anchors still work.
@Suite("Config: alias expansion budget", .timeLimit(.minutes(20)))
struct ConfigAliasBudgetTests {
    /// A pipeline whose sink carries `*a<levels - 1>`, each level listing ten aliases of the one before.
    static func bomb(levels: Int, fanOut: Int = 10) -> String {
        var lines = ["a0: &a0 [" + Array(repeating: "x", count: fanOut).joined(separator: ", ") + "]"]
        for i in 1..<levels {
            lines.append(
                "a\(i): &a\(i) [" + Array(repeating: "*a\(i - 1)", count: fanOut).joined(separator: ", ") + "]")
        }
        let anchors = lines.map { "  " + $0 }.joined(separator: "\n")
        return """
            name: bomb
            sources:
              src:
                type: ticker
                rate: 10
                extra:
            \(anchors)
            sinks:
              out:
                type: printer
                inputs: [src]
                more: *a\(levels - 1)

            """
    }

    // Five levels add about 111,000 nodes: enough to cross the budget, small enough that the
    // code before the budget got through it (and reported the unknown keys instead).
    @Test(.timeLimit(.minutes(20)), arguments: [5, 9, 12])
    func multiplyingAliasesAreRefusedNamingTheAnchor(levels: Int) throws {
        let all = try V.diagnostics(Self.bomb(levels: levels))
        #expect(all.count == 1, "\(all)")
        let d = try #require(all.first)
        #expect(d.message.contains("aliases of '&a3' expand the file by more than 100000 nodes"), "\(d)")
        // At the anchor's definition, which the file shows on its own line.
        #expect(d.line == 10 && d.column == 7, "\(d)")
    }

    @Test func tooManyAliasesAreRefused() throws {
        // Ten thousand and one aliases of one scalar: a small expansion, but a count past the limit.
        let uses = Array(repeating: "*v", count: AliasBudget.maxAliases + 1).joined(separator: ", ")
        let yaml = "v: &v 1\nlist: [\(uses)]\n"
        let error = #expect(throws: ConfigError.self) { try YAMLFile.compose(text: yaml, file: "many.yaml") }
        let d = try #require(error?.diagnostics.first)
        #expect(d.message.contains("anchor '&v' is aliased once too often: a file may use at most 10000 aliases"))
        #expect(d.line == 1 && d.column == 4, "\(d)")
    }

    @Test func ordinaryAnchorsStillWork() throws {
        let yaml = """
            sources:
              a: &base
                type: ticker
                rate: 10
              b: *base
            sinks:
              out:
                type: printer
                inputs: [a, b]

            """
        let spec = try V.load(yaml)
        #expect(spec.components.filter { $0.kind == .source }.map(\.name) == ["a", "b"])
    }

    @Test func aRedefinedAnchorIsCountedAsItsOwnNode() throws {
        // `&x` first names a scalar, then a large list; the aliases after it expand the list.
        let big = "[" + Array(repeating: "0", count: 1_000).joined(separator: ", ") + "]"
        let under = "x: &x 1\ny: &x \(big)\nz: [" + Array(repeating: "*x", count: 90).joined(separator: ", ") + "]\n"
        #expect(throws: Never.self) { try YAMLFile.compose(text: under, file: "r.yaml") }
        let over = "x: &x 1\ny: &x \(big)\nz: [" + Array(repeating: "*x", count: 110).joined(separator: ", ") + "]\n"
        let error = #expect(throws: ConfigError.self) { try YAMLFile.compose(text: over, file: "r.yaml") }
        #expect(error?.diagnostics.first?.line == 2)
    }

    @Test func everyYAMLReaderKeepsTheBudget() throws {
        // Data files (elements, tests) go through YAMLFile, `--set` values through the loader.
        let levels =
            ["a: &a [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]"]
            + (1..<6).map {
                "l\($0): &l\($0) ["
                    + Array(repeating: $0 == 1 ? "*a" : "*l\($0 - 1)", count: 10).joined(separator: ", ") + "]"
            }
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("bomb-\(UUID().uuidString).yaml")
        try (levels.joined(separator: "\n") + "\n").write(to: url, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: url) }
        #expect(throws: ConfigError.self) { try YAMLFile.compose(path: url.path, kind: "an elements file") }

        let minimal = "sources:\n  src: {type: ticker, rate: 10}\nsinks:\n  out: {type: printer, inputs: [src]}\n"
        let set = "sources.src.extra={" + levels.joined(separator: ", ") + "}"
        let all = try V.diagnostics(minimal, overrides: [set])
        #expect(all.contains { $0.file == "--set" && $0.message.contains("expand the file by more than") }, "\(all)")
    }

    @Test func nestingTooDeepReadsCleanly() throws {
        let d = try V.single("x: " + String(repeating: "[", count: 1_100) + String(repeating: "]", count: 1_100) + "\n")
        #expect(d.message == "nested too deep: YAML files may nest lists and mappings at most 1000 levels", "\(d)")
        #expect(d.line == 1)
    }

    /// libyaml says "found character that cannot start any token"; the user needs "tab", and where.
    @Test(arguments: [("sources:\n\tsrc: {type: ticker}\n", 2, 1), ("sources:\n  src:\n  \t type: ticker\n", 3, 3)])
    func aTabInTheIndentationIsCalledATab(text: String, line: Int, column: Int) throws {
        let d = try V.single(text)
        #expect(
            d.message
                == "YAML syntax: a tab in the indentation; YAML indents with spaces only, so replace the tab with spaces",
            "\(d)")
        #expect(d.line == line && d.column == column, "\(d)")
    }
}
