import DAQCore
import DAQTesting
import Foundation
import Testing

/// DAQCore's one CSV splitter, which `motion.replay` and the `file`/`stdin` sources share.
@Suite("CSV cells", .timeLimit(.minutes(20)))
struct CSVCellsTests {
    static func cells(_ line: String, _ delimiter: Character = ",") -> [String] {
        CSVCells.split(Array(line.utf8), delimiter: delimiter.asciiValue!).map { String(decoding: $0, as: UTF8.self) }
    }

    /// Lines RFC 4180 allows: the cells it defines.
    static let rfc4180: [(String, [String])] = [
        ("a,b,c", ["a", "b", "c"]),
        ("\"a,b\",c", ["a,b", "c"]),
        ("\"say \"\"hi\"\"\",2", ["say \"hi\"", "2"]),
        ("a,,", ["a", "", ""]),
        ("\"\"", [""]),
        ("", [""]),
        ("1,\"\",3", ["1", "", "3"]),
        ("x,\"multi word, with comma\"", ["x", "multi word, with comma"]),
        (" 1, 2 ", [" 1", " 2 "]),
    ]

    @Test(arguments: rfc4180)
    func rfc4180Lines(_ line: String, _ expected: [String]) {
        #expect(Self.cells(line) == expected)
    }

    /// The case the two old splitters disagreed on: `motion.replay`'s dropped spaces before a
    /// quote and opened the quoted cell, the `file` source's kept them and split inside the
    /// quotes. Device exports that write `", "` between cells need the first.
    @Test func aQuotedCellMayFollowSpaces() {
        #expect(Self.cells("1, \"a,b\"") == ["1", "a,b"])
        #expect(Self.cells("1,   \"a\"\"b\",2") == ["1", "a\"b", "2"])
        // Without spaces, what both always did.
        #expect(Self.cells("1,\"a,b\"") == ["1", "a,b"])
    }

    @Test func aQuoteAfterTextIsText() {
        #expect(Self.cells("ab\"c,d") == ["ab\"c", "d"])
        #expect(Self.cells("5\" disk,x") == ["5\" disk", "x"])
    }

    @Test func otherDelimiters() {
        #expect(Self.cells("a\t\"b\tc\"\td", "\t") == ["a", "b\tc", "d"])
        #expect(Self.cells("1;2,5;\"x;y\"", ";") == ["1", "2,5", "x;y"])
    }

    /// Python's `csv` module, an implementation we did not write, splits every RFC 4180 line
    /// the same way.
    @Test func pythonsCSVAgreesOnRFC4180Lines() throws {
        let lines = Self.rfc4180.map(\.0).filter { !$0.isEmpty }
        let script = """
            import csv, json, sys
            for line in json.load(sys.stdin):
                print(json.dumps(next(csv.reader([line], strict=True))))
            """
        let r = try Process.runToEnd(
            "python3", ["-c", script], input: try JSONSerialization.data(withJSONObject: lines), timeout: 60)
        try #require(r.status == 0, "python3 is needed to cross-check CSV splitting: \(r.errors)")
        let text = r.output
        let theirs = try text.split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String])
        }
        #expect(theirs.count == lines.count)
        for (line, cells) in zip(lines, theirs) {
            #expect(Self.cells(line) == cells, "\(line)")
        }
    }
}
