import DAQCore
import DAQTesting
import Foundation
import Testing

@testable import DAQBarcode

/// Codes without an AIM symbology identifier, as most keyboard-wedge and serial scanners send
/// them: element strings are found, GTINs stay GTINs.
@Suite(.timeLimit(.minutes(20))) struct GS1DetectionTests {
    func read(_ code: String, _ detect: GS1Detection = .auto) -> Fields {
        let scanned = ScannedCode(raw: Array(code.utf8))
        return GS1Reading(detect: detect).fields(scanned.text, symbology: scanned.symbology, today: day(2026))
            ?? Fields()
    }

    /// GTINs of real products and of the GS1 General Specifications, each 14 digits as GS1
    /// writes keys: GTIN-8/12/13 padded with zeros, UPC-E expanded to its UPC-A first.
    static let realGTINs: [(String, String)] = [
        ("4006381333931", "04006381333931"), ("5901234123457", "05901234123457"), ("9780201379624", "09780201379624"),
        ("9783161484100", "09783161484100"), ("3017620422003", "03017620422003"), ("5449000000996", "05449000000996"),
        ("4008400402222", "04008400402222"), ("8000500310427", "08000500310427"), ("7622210449283", "07622210449283"),
        ("8711000530085", "08711000530085"), ("4000417025005", "04000417025005"), ("036000291452", "00036000291452"),
        ("012345678905", "00012345678905"), ("049000028911", "00049000028911"), ("96385074", "00000096385074"),
        ("40170725", "00000040170725"), ("73513537", "00000073513537"), ("01234565", "00012345000065"),
        ("10012345678902", "10012345678902"), ("15400141288763", "15400141288763"),
        ("00012345600012", "00012345600012"),
        ("6291041500213", "06291041500213"),
    ]

    @Test(arguments: realGTINs, [GS1Detection.auto, .always, .symbology])
    func aValidGTINStaysAGTINInEveryMode(code: (String, String), detect: GS1Detection) {
        let f = read(code.0, detect)
        #expect(f["gtin"] == .string(code.1), "\(code.0)")
        #expect(f["gs1"] == nil && f["gs1_error"] == nil && f["order_number"] == nil, "\(code.0): \(f)")
    }

    @Test func theEAN13ThatLooksLikeAnOrderNumber() throws {
        // AI (400) would take `6381333931`: the code is an EAN-13 by length and check digit.
        for detect in [GS1Detection.auto, .always] {
            #expect(read("4006381333931", detect) == ["gtin": "04006381333931"])
        }
        // The old switch keeps its meaning, bar this.
        let h = try TransformHarness(GS1Transform.self, config: "assume_gs1: true")
        let out = try h.push([scan("4006381333931", "ean-13"), scan("HELLO", "unknown")])
        #expect(out[0]["gtin"] == .string("04006381333931") && out[0]["order_number"] == nil)
        #expect(out[1]["gs1_error"] == .string("offset 0: unknown application identifier at 'HELL'"))
    }

    /// Element strings without a prefix, FNC1 sent as GS where a variable-length field ends.
    @Test(
        arguments: [
            (
                "010950110153000317261231\u{1D}10LOT4711\u{1D}21SN0001",
                ["gtin": "09501101530003", "expiry_date": "2026-12-31", "batch_lot": "LOT4711", "serial": "SN0001"]
            ),
            ("0109501101530003", ["gtin": "09501101530003"]),
            ("00106141411234567897", ["sscc": "106141411234567897"]),
            (
                "0195012345678903310300012315261200",
                ["gtin": "95012345678903", "net_weight_kg": 0.123, "best_before_date": "2026-12-31"]
            ),
            ("0309501101530003", ["mto_gtin": "09501101530003"]),
            ("011234567890123170112612311230", ["gtin": "12345678901231", "test_by_date": "2026-12-31T12:30"]),
            ("00106141411234567897" + "4330001235-", ["sscc": "106141411234567897", "max_temp_f": "001235-"]),
            ("01095011015300037240PROTOCOL-7", ["gtin": "09501101530003", "protocol": "PROTOCOL-7"]),
            ("80131987654Ad4X4bL5ttr2310c2K", ["gmn": "1987654Ad4X4bL5ttr2310c2K"]),
            ("8026095011015300030102\u{1D}3712", ["itip_content": "095011015300030102", "count": "12"]),
            (
                "0109501101530003" + "21SN123\u{1D}8030MEUCIQD5u0a2Vw9-_X",
                ["gtin": "09501101530003", "serial": "SN123", "digsig": "MEUCIQD5u0a2Vw9-_X"]
            ),
            (
                "8018106141412345678908" + "\u{1D}725019850623",
                ["gsrn_recipient": "106141412345678908", "dob": "1985-06-23"]
            ),
            (
                "0109501101530003" + "800826123114",
                ["gtin": "09501101530003", "production_date_time": "2026-12-31T14:00"]
            ),
        ] as [(String, Fields)])
    func elementStringsWithoutAPrefixAreRead(code: String, expected: Fields) {
        let f = read(code)
        #expect(f["gs1_error"] == nil, "\(code.debugDescription): \(f["gs1_error"]?.stringValue ?? "")")
        for (k, v) in expected.pairs {
            #expect(f[k] == v, "\(code.debugDescription): \(k) = \(f[k].map { "\($0)" } ?? "nil")")
        }
    }

    /// Without a prefix, only what reads as valid element strings from end to end is taken.
    @Test(arguments: [
        "HELLO-WORLD", "12345", "0109501101530004", "0109501101530003261234", "17261301", "10ABCDEFGHIJKLMNOPQRSTU",
        "8026095011015300030102" + "3712", "80131987654Ad4X4bL5ttr2310cXK", "800826123160",
    ])
    func whatIsNotValidElementStringsIsLeftAlone(code: String) {
        #expect(read(code) == Fields(), "\(code)")
        #expect(read(code, .always)["gs1_error"] != nil, "detect: always says what is wrong with \(code)")
    }

    @Test func aSymbologyThatNamesTheCodeIsBelieved() {
        // Code 128 without FNC1 in first position is not GS1-128, whatever its data.
        #expect(read("]C0" + "0109501101530003") == Fields())
        #expect(read("]C1" + "0109501101530003")["gtin"] == .string("09501101530003"))
        #expect(read("]C0" + "0109501101530003", .always)["gtin"] == .string("09501101530003"))
        // A log that kept the AIM identifier in its code field.
        #expect(
            GS1Reading(detect: .auto).fields("]d2" + "0109501101530003", symbology: nil, today: day(2026))?["gtin"]
                == .string("09501101530003"))
        // An EAN read with a wrong check digit says so, and a too-long one does not crash.
        #expect(read("]E04006381333932")["gs1_error"] == .string("offset 12: check digit does not match"))
        #expect(read("]E0" + "40063813339312345")["gs1_error"] != nil)
        #expect(
            read("]E0" + "40063\u{1D}81333931")["gs1_error"]
                == .string("offset 0: ean-13 data must be 8, 12, 13 or 14 digits, found '40063\\x1D81333931'"))
    }

    @Test func configuration() throws {
        #expect(throws: (any Error).self) {
            try TransformHarness(GS1Transform.self, config: "detect: always\nassume_gs1: true")
        }
        #expect(throws: (any Error).self) { try TransformHarness(GS1Transform.self, config: "detect: sometimes") }
        let h = try TransformHarness(GS1Transform.self, config: "detect: symbology")
        let out = try h.push([scan("0109501101530003", "unknown")])
        #expect(out[0]["gtin"] == nil, "symbology: only GS1 symbologies")
        let auto = try TransformHarness(GS1Transform.self)
        #expect(
            try auto.push([scan("0109501101530003", "unknown")])[0]["gtin"] == .string("09501101530003"),
            "auto is the default")
    }

    /// GS1 General Specifications, alphanumeric check character pair (GMN): worked values.
    @Test(arguments: [
        "1987654Ad4X4bL5ttr2310c2K", "12345678901234567890123NT", "12345_ABCDEFGHIJKLMCP", "00000!HV", "22",
    ])
    func checkCharacterPairs(gmn: String) {
        #expect(CheckCharacterPair.isValid(gmn))
        var wrong = Array(gmn.utf8)
        wrong[wrong.count - 1] = wrong.last == UInt8(ascii: "2") ? UInt8(ascii: "3") : UInt8(ascii: "2")
        #expect(!CheckCharacterPair.isValid(String(decoding: wrong, as: UTF8.self)))
    }

    /// Every AI of the GS1 Barcode Syntax Dictionary, the recent ones included.
    @Test func theSyntaxDictionarysAIs() {
        for ai in [
            "03", "243", "254", "427", "4309", "4326", "4330", "4333", "7011", "7041", "716", "7240", "7242", "7250",
            "7259", "8013", "8014", "8019", "8026", "8030", "8112",
        ] {
            #expect(AITable.entries[ai] != nil, "AI (\(ai))")
        }
        #expect(AITable.entries.count == 536)
    }
}

/// A `scan.data` event as the scanner sources emit it.
func scan(_ code: String, _ symbology: String) -> Sample {
    Sample(
        uptime: 0, kind: .event, fields: ["event": "scan.data", "code": .string(code), "symbology": .string(symbology)])
}
