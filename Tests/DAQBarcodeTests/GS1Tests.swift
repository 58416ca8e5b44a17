import DAQCore
import DAQTesting
import Foundation
import Testing

@testable import DAQBarcode

let gs = "\u{1D}"

/// A fixed "today" so century rules do not depend on the year the test runs.
func day(_ y: Int, _ m: Int = 6, _ d: Int = 15) -> Date {
    Calendar(identifier: .gregorian).date(
        from: DateComponents(timeZone: TimeZone(identifier: "UTC"), year: y, month: m, day: d))!
}

@Suite(.timeLimit(.minutes(20))) struct CheckDigitTests {
    @Test func workedExamplesOfTheGeneralSpecifications() {
        // GS1 General Specifications 7.9.1: 629104150021 → 3.
        #expect(Mod10.checkDigit(for: Array("629104150021".utf8)) == 3)
        #expect(Mod10.isValid("6291041500213"))
        #expect(Mod10.isValid("09501101530003"))  // GTIN-14 of the examples
        #expect(Mod10.isValid("106141411234567897"))  // SSCC
        #expect(Mod10.isValid("96385074"))  // EAN-8
        #expect(Mod10.isValid("036000291452"))  // UPC-A
        #expect(!Mod10.isValid("09501101530004"))
        #expect(!Mod10.isValid("0950110153000A"))
    }

    /// Its lengths and separator rules are biip's (GS1CrossCheckTests); here, its names.
    @Test func anAITableOfEveryIdentifier() {
        #expect(AITable.entries["3103"]?.name == "net_weight_kg" && AITable.entries["3103"]?.decimals == 3)
        #expect(AITable.entries["3322"]?.name == "logistic_width_m")
        #expect(AITable.entries["3142"]?.name == "area_m2")
        #expect(AITable.entries["7031"]?.name == "processor_1")
        #expect(AITable.entries["7239"]?.name == "certification_10")
        #expect(AITable.entries["99"]?.name == "internal_99")
        // AIs share a name as one measure with different decimal places (3100-3105: the same
        // first three digits), or as one meaning written two ways: an amount or price with its
        // currency or without (390n and 391n, 392n and 393n), a price per unit (395n, 8005).
        // Two other meanings under one name would merge their fields.
        let byName = Dictionary(grouping: AITable.entries.keys) { AITable.entries[$0]!.name }
        let shared = byName.filter { Set($0.value.map { $0.prefix(3) }).count > 1 }.mapValues {
            Set($0.map { String($0.prefix(3)) })
        }
        #expect(shared == ["amount": ["390", "391"], "price": ["392", "393"], "price_per_unit": ["395", "800"]])
        #expect(byName.keys.allSatisfy { !$0.isEmpty })
    }
}

@Suite(.timeLimit(.minutes(20))) struct ElementStringTests {
    func parse(_ s: String, today: Date = day(2026)) -> GS1Data { ElementStringParser.parse(s, today: today) }

    @Test func predefinedAndVariableLengthsWithSeparators() {
        let d = parse("01095011015300031714070410AB-123" + gs + "21XYZ")
        #expect(d.errors.isEmpty)
        #expect(d.elements.map(\.ai) == ["01", "17", "10", "21"])
        let f = d.fields()
        #expect(f["gtin"] == .string("09501101530003") && f["expiry_date"] == .string("2014-07-04"))
        #expect(f["batch_lot"] == .string("AB-123") && f["serial"] == .string("XYZ"))
        #expect(f["gs1"] == .object(["01": "09501101530003", "17": "140704", "10": "AB-123", "21": "XYZ"]))
    }

    @Test func humanReadableForm() {
        let d = parse("(00)106141411234567897(401)ORDER1(3922)1295")
        #expect(d.errors.isEmpty)
        #expect(d.fields()["sscc"] == .string("106141411234567897"))
        #expect(d.fields()["ginc"] == .string("ORDER1") && d.fields()["price"] == .double(12.95))
    }

    @Test func dayZeroIsTheEndOfTheMonth() {
        #expect(parse("17261100").fields()["expiry_date"] == .string("2026-11-30"))
        #expect(parse("17280200").fields()["expiry_date"] == .string("2028-02-29"))
        #expect(parse("17270200").fields()["expiry_date"] == .string("2027-02-28"))
        #expect(!parse("11260600").errors.isEmpty == false, "production date allows 00 too")
        #expect(
            parse("7006260600").errors.first == "offset 8: AI (7006) day 0 does not exist in month 6",
            "first freeze date does not")
    }

    @Test func centuryBySlidingWindow() {
        #expect(parse("1776" + "0101", today: day(2026)).fields()["expiry_date"] == .string("2076-01-01"))  // 50 ahead
        // 51 ahead: past
        #expect(parse("1777" + "0101", today: day(2026)).fields()["expiry_date"] == .string("1977-01-01"))
        // 50 back: next
        #expect(parse("1730" + "0101", today: day(2080)).fields()["expiry_date"] == .string("2130-01-01"))
        #expect(parse("1731" + "0101", today: day(2080)).fields()["expiry_date"] == .string("2031-01-01"))
    }

    @Test func decimalsCurrenciesAndDateTimes() {
        let f = parse("3103000750" + "3932978" + "1295" + gs + "7003261231" + "2359" + "800826123114").fields()
        #expect(f["net_weight_kg"] == .double(0.75))
        #expect(f["price"] == .double(12.95) && f["price_currency"] == .string("978"))
        #expect(f["expiry_date_time"] == .string("2026-12-31T23:59"))
        #expect(f["production_date_time"] == .string("2026-12-31T14:00"))
    }

    @Test(arguments: [
        ("0109501101530004", "offset 15: AI (01) check digit is 4, expected 3"),
        ("01095011015300A3", "offset 14: AI (01) expects a digit, found 'A'"),
        ("0109501101530003261234", "offset 16: unknown application identifier at '2612'"),
        ("17261301", "offset 4: AI (17) month 13 does not exist"),
        ("17260231", "offset 6: AI (17) day 31 does not exist in month 2"),
        ("10AB#C", "offset 4: AI (10) expects a character of GS1's set, found '#'"),
        ("0109501101", "offset 2: AI (01) needs 14 characters, found 8"),
        (
            "10ABCDEFGHIJKLMNOPQRSTU",
            "offset 2: AI (10) holds at most 20 characters, found 21 before the next separator (a missing FNC1?)"
        ),
    ])
    func errorsNameTheReasonAndTheOffset(code: String, error: String) {
        let d = parse(code)
        #expect(d.errors.first == error)
        #expect(d.fields()["gs1_error"] != nil)
    }

    @Test func anInvalidElementKeepsItsRawDataButNoNamedField() {
        let f = parse("0109501101530004" + "10LOT").fields()
        #expect(f["gtin"] == nil && f["batch_lot"] == .string("LOT"))
        #expect(f["gs1"] == .object(["01": "09501101530004", "10": "LOT"]))
    }
}

@Suite(.timeLimit(.minutes(20))) struct DigitalLinkTests {
    @Test func theStandardsExampleWithQualifiersAndQuery() {
        // GS1 Digital Link standard: 01 with 22, 10 (percent-encoded '/') and 21, 17 in the query.
        let d = DigitalLink.parse(
            "https://id.gs1.org/01/09520123456788/22/2A/10/ABC%2F123/21/12345?17=180426&linkType=gs1:pip",
            today: day(2026))
        #expect(d.errors.isEmpty)
        let f = d.fields()
        #expect(f["gtin"] == .string("09520123456788") && f["cpv"] == .string("2A"))
        #expect(f["batch_lot"] == .string("ABC/123") && f["serial"] == .string("12345"))
        #expect(f["expiry_date"] == .string("2018-04-26"))
    }

    @Test func anyDomainAPathPrefixAndShortGTINs() {
        let d = DigitalLink.parse("https://example.com/shop/01/4006381333931?3103=000195", today: day(2026))
        #expect(d.fields()["gtin"] == .string("04006381333931") && d.fields()["net_weight_kg"] == .double(0.195))
    }

    @Test func errors() {
        #expect(
            DigitalLink.parse("https://example.com/products/42").errors.first?.hasPrefix(
                "offset 19: no GS1 primary key") == true)
        #expect(
            DigitalLink.parse("https://id.gs1.org/01/09520123456789").errors.first
                == "offset 35: AI (01) check digit is 9, expected 8")
    }
}

@Suite(.timeLimit(.minutes(20))) struct SymbologyTests {
    func id(_ s: String) -> SymbologyIdentifier { SymbologyIdentifier.identify(Array(s.utf8)) }

    @Test(arguments: [
        ("]C1010950110153000317", "gs1-128", true), ("]C0ABC", "code-128", false),
        ("]E04006381333931", "ean-13", false),
        ("]E00036000291452", "upc-a", false), ("]E496385074", "ean-8", false),
        ("]d2010950110153000317", "gs1-datamatrix", true),
        ("]Q3010950110153000317", "gs1-qr", true), ("]Q1hello", "qr", false), ("]I110012345678902", "itf-14", false),
        ("]I11234", "itf", false), ("]A0CODE39", "code-39", false), ("]e0010950110153000317", "gs1-databar", true),
        ("]L0PDF", "pdf417", false), ("]z0AZTEC", "aztec", false), ("]F0A123B", "codabar", false),
        ("]X0?", "other", false),
    ])
    func aimIdentifiers(code: String, name: String, gs1: Bool) {
        let s = id(code)
        #expect(s.name == name && s.isGS1 == gs1 && s.aim == String(code.prefix(3)))
        #expect(s.data == Array(code.utf8.dropFirst(3)))
    }

    @Test(arguments: [
        ("96385074", "ean-8"), ("01234565", "upc-e"), ("036000291452", "upc-a"), ("4006381333931", "ean-13"),
        ("10012345678902", "itf-14"), ("4006381333932", "unknown"), ("12345", "unknown"), ("ABCDEFGH", "unknown"),
    ])
    func inferredByLengthAndCheckDigit(code: String, name: String) {
        #expect(id(code).name == name)
    }

    @Test func upcEExpandsAsGS1Says() {
        #expect(SymbologyIdentifier.expandUPCE(Array("01234565".utf8)) == Array("012345000065".utf8))
        #expect(SymbologyIdentifier.expandUPCE(Array("04252614".utf8)) == Array("042100005264".utf8))
        #expect(id("01234565").gtin == "00012345000065")
    }
}

@Suite(.timeLimit(.minutes(20))) struct GS1TransformTests {
    @Test func fieldsAreAddedToScans() throws {
        let h = try TransformHarness(GS1Transform.self)
        func scan(_ code: String, _ symbology: String) -> Sample {
            Sample(
                uptime: 0, kind: .event,
                fields: ["event": "scan.data", "code": .string(code), "symbology": .string(symbology)])
        }
        let out = try h.push([
            scan("010950110153000317261231" + gs + "10LOT", "gs1-128"), scan("4006381333931", "ean-13"),
            scan("HELLO", "code-128"), scan("https://example.org/about", "qr"),
        ])
        #expect(out[0]["gtin"] == .string("09501101530003") && out[0]["batch_lot"] == .string("LOT"))
        // A batch holds every column for every sample: a field a sample lacks reads as null.
        func present(_ s: Sample) -> [String] { s.fields.pairs.filter { !$0.1.isNull }.map(\.0) }
        #expect(
            out[1]["gtin"] == .string("04006381333931") && present(out[1]) == ["event", "code", "symbology", "gtin"])
        #expect(present(out[2]) == ["event", "code", "symbology"])
        #expect(present(out[3]) == ["event", "code", "symbology"], "a URL that is no Digital Link is left alone")
    }
}
