import DAQTesting
import Foundation
import Testing

/// Codes of one AI, without an AIM prefix, as a keyboard-wedge scanner sends them, through the
/// real `daq`: each is read as element strings when the whole code parses with right check
/// digits, and left alone (in `detect: auto`) when a check digit is wrong. biip agrees on each.
@Suite(.timeLimit(.minutes(20))) struct ScannerGS1CodesTests {
    /// The code, the field it gives, its value.
    static let valid: [(String, String, String)] = [
        ("0105901234123457", "gtin", "05901234123457"),
        ("00376130321109103420", "sscc", "376130321109103420"),
        ("4101234567890128", "ship_to_gln", "1234567890128"),
        ("800307071324001021085952", "grai", "07071324001021085952"),
        // 9999 as the time: the date alone (AIs 4324/4325).
        ("43240701029999", "not_bef_del_dt", "2007-01-02"),
    ]
    /// The same codes with the check digit the field's key fails on.
    static let wrongCheckDigit = [
        "0105901234123458", "00376130321109103421", "4101234567890127", "800307071324001022085952",
    ]

    static func run(_ codes: [String], detect: String) throws -> [[String: Any]] {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("daq-gs1-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try codes.enumerated().map { "{\"timestamp\": \($0.offset + 1), \"code\": \"\($0.element)\"}\n" }.joined()
            .write(toFile: dir + "/scans.jsonl", atomically: true, encoding: .utf8)
        try """
        name: gs1-codes
        clock: virtual
        sources:
          s: {type: barcode.replay, path: scans.jsonl}
        transforms:
          g: {type: barcode.gs1, inputs: [s], detect: \(detect)}
          data: {type: filter, inputs: [g], expr: "event == 'scan.data'"}
        sinks:
          o: {type: file, inputs: [data], path: out.jsonl}
        """.write(toFile: dir + "/p.yaml", atomically: true, encoding: .utf8)
        let r = try Process.runToEnd(
            ServiceProcess.builtExecutable("daq"), ["run", "p.yaml", "--quiet", "--no-control"], directory: dir)
        try #require(r.status == 0, "\(r.errors)")
        return try String(contentsOfFile: dir + "/out.jsonl", encoding: .utf8).split(separator: "\n").compactMap {
            try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }.filter { $0["kind"] as? String != "marker" }
    }

    @Test func oneAIWithRightCheckDigitsIsRead() throws {
        let rows = try Self.run(Self.valid.map(\.0), detect: "auto")
        try #require(rows.count == Self.valid.count)
        for (row, (code, field, value)) in zip(rows, Self.valid) {
            #expect(row[field] as? String == value, "\(code): \(row)")
            #expect(row["gs1_error"] == nil, "\(code): \(row)")
        }
    }

    @Test func aWrongCheckDigitIsLeftAloneOrNamed() throws {
        let auto = try Self.run(Self.wrongCheckDigit, detect: "auto")
        #expect(auto.count == 4 && auto.allSatisfy { $0["gs1"] == nil && $0["gs1_error"] == nil }, "\(auto)")
        let always = try Self.run(Self.wrongCheckDigit, detect: "always")
        #expect(always.allSatisfy { ($0["gs1_error"] as? String)?.contains("check digit") == true }, "\(always)")
    }

    /// biip reads each valid code as the same single AI with no error, and finds the check digit
    /// wrong in the others: the codes are what these tests say they are.
    @Test func biipReadsTheCodesAlike() throws {
        let script = """
            import biip, json, sys
            for code in sys.argv[1:]:
                m = biip.parse(code).gs1_message
                e = m.element_strings[0]
                print(json.dumps([e.ai.ai, e.value, e.gtin_error or e.sscc_error or e.gln_error]))
            """
        let codes = Self.valid.map(\.0) + Self.wrongCheckDigit
        let r = try Process.runToEnd("/usr/bin/env", ["python3", "-c", script] + codes)
        try #require(r.status == 0, "biip is installed by scripts/test.sh: \(r.errors)")
        let lines = r.output.split(separator: "\n").map { try? JSONSerialization.jsonObject(with: Data($0.utf8)) }
        try #require(lines.count == codes.count)
        for (i, line) in lines.enumerated() {
            let a = try #require(line as? [Any])
            if i < Self.valid.count {
                #expect(a[2] is NSNull, "\(codes[i]): biip \(a)")
            } else if i < Self.valid.count + 3 {
                // GTIN, SSCC and GLN: biip checks their digit too (a GRAI's it does not).
                #expect(a[2] as? String != nil, "\(codes[i]): biip \(a)")
            }
        }
    }
}
