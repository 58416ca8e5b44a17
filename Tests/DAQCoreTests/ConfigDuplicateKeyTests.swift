import DAQCore
import Testing

/// A key given twice in one mapping is reported at the second occurrence, the line to delete.
@Suite("Config: duplicate keys", .timeLimit(.minutes(20)))
struct ConfigDuplicateKeyTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var yaml: String
        var key: String
        var line: Int
        var column: Int
        var firstLine: Int
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(
            name: "top level", yaml: V.minimal + "speed: 2\nspeed: 3\n", key: "speed", line: 10, column: 1, firstLine: 9
        ),
        Case(
            name: "inside a component",
            yaml: """
                sources:
                  src:
                    type: ticker
                    rate: 10
                    shape: sine
                    rate: 20
                """,
            key: "rate", line: 6, column: 5, firstLine: 4),
        Case(
            name: "flow mapping on one line",
            yaml: "sources:\n  src: {type: ticker, rate: 1, rate: 2}\n",
            key: "rate", line: 2, column: 32, firstLine: 2),
        Case(
            name: "first key of a sequence item",
            yaml: "steps:\n  - at: 1\n    path: a\n    at: 2\n",
            key: "at", line: 4, column: 5, firstLine: 2),
        Case(
            name: "component name twice in one section",
            yaml: "sinks:\n  out: {type: printer}\n  log: {type: printer}\n  out: {type: collect}\n",
            key: "out", line: 4, column: 3, firstLine: 2),
    ]

    @Test(arguments: cases)
    func reportedAtSecondOccurrence(_ c: Case) throws {
        let d = try V.single(c.yaml)
        expectDiagnostic(
            d, line: c.line, column: c.column, path: "",
            "key '\(c.key)' is given twice in one mapping (first at line \(c.firstLine))")
    }

    @Test func twoDifferentKeysDuplicatedInOneMapping() throws {
        // Yams gives one context mark (that of the alphabetically first key) for every duplicate.
        let yaml = "speed: 1\nspeed: 2\nclock: virtual\nclock: replay\n"
        let all = try V.errors(yaml).sorted { ($0.line ?? 0) < ($1.line ?? 0) }
        try #require(all.count == 2)
        expectDiagnostic(all[0], line: 2, column: 1, path: "", "key 'speed'", "(first at line 1)")
        expectDiagnostic(all[1], line: 4, column: 1, path: "", "key 'clock'", "(first at line 3)")
    }

    @Test func quotedKeyGivenTwice() throws {
        let d = try V.single(V.minimal + "\"speed\": 2\n\"speed\": 3\n")
        expectDiagnostic(d, line: 10, column: 1, path: "", "key 'speed' is given twice", "(first at line 9)")
    }
}
