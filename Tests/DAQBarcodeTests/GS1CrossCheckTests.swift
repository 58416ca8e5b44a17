import DAQCore
import DAQTesting
import Foundation
import Testing

@testable import DAQBarcode

/// Scanner strings, with and without AIM prefixes, read by `barcode.gs1` and by biip (PyPI,
/// an independent GS1 reader): the same AIs and values, the same GTIN.
///
/// biip reports every reading it can make of a code: `4006381333931` is both a GTIN and AI
/// (400). Ours makes one: a code that is a GTIN by length and check digit stays a GTIN. So
/// a GTIN of ours must be one biip found, element strings of ours must be biip's message, and
/// a code we leave alone must be one biip finds nothing in either.
@Suite(.timeLimit(.minutes(20))) struct GS1CrossCheckTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/gs1")

    struct Theirs {
        var gtin: String?
        var upc: String?
        var ais: [[String]]?
    }

    static func biip(_ corpus: String) throws -> [Theirs] {
        let r = try Process.runToEnd(
            "python3", [fixtures.appendingPathComponent("biip-read.py").path, corpus], timeout: 120)
        try #require(
            r.status == 0,
            "biip-read.py failed (biip is installed by scripts/test.sh: python3 -m pip install biip==5.2.0): \(r.errors.suffix(1500))"
        )
        return try r.output.split(separator: "\n").map { line in
            let o = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            return Theirs(gtin: o["gtin"] as? String, upc: o["upc"] as? String, ais: o["ais"] as? [[String]])
        }
    }

    @Test func everyScannerStringReadsAsBiipReadsIt() throws {
        let corpus = Self.fixtures.appendingPathComponent("scanner-strings.jsonl").path
        let codes = try String(contentsOfFile: corpus, encoding: .utf8).split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: String])["code"]!
        }
        let theirs = try Self.biip(corpus)
        try #require(theirs.count == codes.count, "biip read \(theirs.count) of \(codes.count) lines")
        var kinds: [String: Int] = [:]
        for (code, t) in zip(codes, theirs) {
            // The scanner's path: the AIM identifier read and stripped, then the transform.
            let scanned = ScannedCode(raw: Array(code.utf8))
            let f =
                GS1Reading(detect: .auto).fields(scanned.text, symbology: scanned.symbology, today: day(2026))
                ?? Fields()
            let shown = code.debugDescription
            #expect(f["gs1_error"] == nil, "\(shown): \(f["gs1_error"]?.stringValue ?? "")")
            if case .object(let ais)? = f["gs1"] {
                kinds["element strings", default: 0] += 1
                let ours = ais.pairs.map { [$0.0, $0.1.stringValue ?? ""] }
                #expect(ours == t.ais ?? [], "\(shown): AIs here \(ours), biip \(t.ais ?? [])")
                #expect(f["gtin"]?.stringValue == t.ais?.first { $0[0] == "01" }?[1], "\(shown): gtin")
            } else if let gtin = f["gtin"]?.stringValue {
                kinds["gtin", default: 0] += 1
                #expect(
                    gtin == t.gtin || gtin == t.upc,
                    "\(shown): gtin \(gtin) here, biip \(t.gtin ?? "none") / UPC \(t.upc ?? "none")")
            } else {
                kinds["nothing", default: 0] += 1
                #expect(t.gtin == nil && t.ais == nil, "\(shown): nothing here, biip found \(t)")
            }
        }
        // The corpus exercises every outcome, prefix or not.
        #expect(
            kinds["element strings", default: 0] >= 50 && kinds["gtin", default: 0] >= 35
                && kinds["nothing", default: 0] >= 5, "\(kinds)")
    }

    /// Every Application Identifier of ours has biip's data lengths and separator rule, read from
    /// biip's own table (`biip-ais.py`): a wrong length in `AITable` (two AIs' swapped) fails here.
    @Test func everyApplicationIdentifierHasBiipsLengthsAndSeparatorRule() throws {
        let r = try Process.runToEnd(
            "python3", [Self.fixtures.appendingPathComponent("biip-ais.py").path], timeout: 120)
        try #require(
            r.status == 0,
            "biip-ais.py failed (biip is installed by scripts/test.sh: python3 -m pip install biip==5.2.0): \(r.errors.suffix(1500))"
        )
        let table = try #require(try JSONSerialization.jsonObject(with: r.stdout) as? [String: [Int]])
        func shown(_ min: Int, _ max: Int, _ predefined: Bool) -> String {
            "\(min)-\(max)\(predefined ? " predefined" : "")"
        }
        let theirs = table.mapValues { shown($0[0], $0[1], $0[2] == 1) }
        let ours = AITable.entries.mapValues { shown($0.minLength, $0.maxLength, $0.predefined) }
        // AIs newer than our table (GS1 General Specifications 24 and 25): one added here fails
        // this line until it is taken off the list.
        #expect(Set(theirs.keys).subtracting(ours.keys) == ["717", "8040", "8041", "8042", "8043"])
        #expect(Set(ours.keys).subtracting(theirs.keys).isEmpty, "AIs biip does not know")
        let differ = ours.keys.sorted().compactMap { ai in
            theirs[ai].flatMap { $0 == ours[ai] ? nil : "\(ai): ours \(ours[ai]!), biip \($0)" }
        }
        // Where biip's format string says less than its own pattern: 423 and 425 are one to five
        // country codes of three digits (its pattern `(\d{3}){1,5}`, and ours), which its format
        // `N3+N3+N..12` reads as at least four.
        #expect(differ == ["423: ours 3-15, biip 4-15", "425: ours 3-15, biip 4-15"])
    }
}
