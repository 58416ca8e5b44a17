import DAQCore
import Testing

/// YAML that Yams cannot parse is reported at Yams' problem mark, with the problem and its context.
@Suite("Config: YAML syntax errors", .timeLimit(.minutes(20)))
struct ConfigSyntaxTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var yaml: String
        var line: Int
        var column: Int
        var fragments: [String]
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(
            name: "key indented less than its siblings",
            yaml: """
                sources:
                  src:
                    type: ticker
                   rate: 10
                """,
            line: 4, column: 4, fragments: ["did not find expected key", "while parsing a block mapping at line 2"]),
        Case(
            name: "flow sequence never closed",
            yaml: """
                sinks:
                  out:
                    type: printer
                    inputs: [src

                """,
            line: 5, column: 1,
            fragments: ["did not find expected ',' or ']'", "while parsing a flow sequence at line 4"]),
        Case(
            name: "tab used for indentation",
            yaml: "sources:\n\tsrc: {type: ticker}\n",
            line: 2, column: 1, fragments: ["a tab in the indentation", "spaces only"]),
        Case(
            name: "double-quoted scalar never closed",
            yaml: "name: \"walk\nsources: {}\n",
            line: 3, column: 1,
            fragments: ["found unexpected end of stream", "while scanning a quoted scalar at line 1"]),
    ]

    @Test(arguments: cases)
    func syntaxErrorAtYamsMark(_ c: Case) throws {
        let d = try V.single(c.yaml)
        expectDiagnostic(d, line: c.line, column: c.column, path: "", "YAML syntax: ")
        for f in c.fragments {
            #expect(d.message.contains(f), "'\(d.message)' lacks '\(f)'")
        }
        #expect(d.description.hasPrefix("p.yaml:\(c.line):\(c.column): error: YAML syntax: "))
    }

    @Test func syntaxErrorStopsFurtherValidation() throws {
        // The unknown key on line 1 cannot be checked: the document never composed.
        let all = try V.diagnostics("sourcse: 1\nsinks: [a\n")
        #expect(all.count == 1)
        #expect(all.first?.message.hasPrefix("YAML syntax: ") == true)
    }
}
