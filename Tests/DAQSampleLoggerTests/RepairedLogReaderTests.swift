import DAQCore
import DAQSampleLogger
import DAQTesting
import Foundation
import Testing

/// Logs cut at every byte and repaired, read by readers others wrote: Python's `json` and `csv`
/// modules. Each repaired file must parse, and hold exactly the complete items of the cut log,
/// equal to the first items of the whole log as Python reads it. DAQCore's own parser is not
/// involved.
@Suite("Repaired logs read by Python", .timeLimit(.minutes(20)))
struct RepairedLogReaderTests {
    /// Reads the whole log and every `<cut>.<kind>` file of a folder; prints `[cut, items,
    /// whether they are the whole log's first items]` per file.
    static let reader = """
        import csv, json, os, sys
        kind, original, folder = sys.argv[1:4]
        def read(path):
            if kind == 'json':
                v = json.load(open(path, encoding='utf-8'))
                return v['items'] if isinstance(v, dict) else v
            if kind == 'jsonl':
                lines = open(path, encoding='utf-8').read().split('\\n')
                assert lines[-1] == '', path + ': the last line is not ended'
                return [json.loads(line) for line in lines[:-1]]
            return list(csv.reader(open(path, newline='', encoding='utf-8'), strict=True))[1:]
        whole = read(original)
        for name in sorted(os.listdir(folder), key=lambda n: int(n.split('.')[0])):
            items = read(os.path.join(folder, name))
            print(json.dumps([int(name.split('.')[0]), len(items), items == whole[:len(items)]]))
        """

    /// Repairs `log` cut at each of `cuts`, has Python read every result, and checks each holds
    /// `kept(cut)` items, the whole log's first ones.
    func check(_ kind: String, _ log: [UInt8], cuts: ClosedRange<Int>, kept: (Int) -> Int) throws {
        let folder = tempDirectory()
        let original = tempDirectory() + "/whole.\(kind)"
        try Data(log).write(to: URL(fileURLWithPath: original))
        let format: LogRepair.Format = kind == "csv" ? .csv : kind == "jsonl" ? .jsonLines : .json
        for cut in cuts {
            let repaired = try LogRepair.repair(Array(log[..<cut]), format: format)
            try Data(repaired.bytes).write(to: URL(fileURLWithPath: "\(folder)/\(cut).\(kind)"))
        }
        let r = try Process.runToEnd("python3", ["-c", Self.reader, kind, original, folder], timeout: 300)
        try #require(r.status == 0, "Python could not read a repaired \(kind) log: \(r.errors.suffix(2000))")
        let rows = try r.output.split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [Any])
        }
        try #require(rows.count == cuts.count, "\(rows.count) files read of \(cuts.count)")
        for row in rows {
            let cut = try #require(row[0] as? Int)
            #expect(row[1] as? Int == kept(cut), "\(kind) cut at \(cut): \(row[1]) items, expected \(kept(cut))")
            #expect(row[2] as? Bool == true, "\(kind) cut at \(cut): not the whole log's first items")
        }
    }

    /// Where each item line of a JSON log ends (after its last brace).
    static func itemEnds(_ log: [UInt8]) -> [Int] {
        var ends: [Int] = []
        var offset = 0
        for line in String(decoding: log, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false) {
            offset += line.utf8.count + 1
            if line.hasPrefix("{\"uptime\"") { ends.append(offset - 1 - (line.hasSuffix(",") ? 1 : 0)) }
        }
        return ends
    }

    @Test(arguments: ["object", "array"])
    func jsonLogs(_ root: String) throws {
        let log = try LogRepairTests().makeLog("json", root: root)
        let ends = Self.itemEnds(log)
        #expect(ends.count == 8)
        let headerEnd = log.firstIndex(of: 0x0A)!
        try check("json", log, cuts: headerEnd...log.count) { cut in ends.filter { $0 <= cut }.count }
    }

    @Test func jsonLinesLogs() throws {
        let log = try LogRepairTests().makeLog("jsonl")
        // A line is kept when it is whole, its newline cut off or not.
        let lineEnds = log.indices.filter { log[$0] == 0x0A }
        #expect(lineEnds.count == 8)
        try check("jsonl", log, cuts: 1...log.count) { cut in lineEnds.filter { $0 <= cut }.count }
    }

    @Test func csvLogs() throws {
        let log = try LogRepairTests().makeCSV()
        var ends: [Int] = []
        var quoted = false
        for (i, b) in log.enumerated() {
            if b == UInt8(ascii: "\"") { quoted.toggle() }
            if b == 0x0A && !quoted { ends.append(i + 1) }
        }
        #expect(ends.count == 7, "the header and 6 rows")
        try check("csv", log, cuts: ends[0]...log.count) { cut in ends.filter { $0 <= cut }.count - 1 }
    }
}
