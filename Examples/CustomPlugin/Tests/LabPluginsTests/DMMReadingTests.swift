import LabPlugins
import Testing

@Suite("DMMReading")
struct DMMReadingTests {
    @Test(
        arguments: [
            ("+1.00070000E+02OHM4W,+0001234.500SECS,+00051RDNG#", 100.07, "OHM4W", 1234.5, 51),
            ("-1.2345E-03VDC,+0000000.000SECS,+00001RDNG#", -0.0012345, "VDC", 0, 1),
            ("+2.5E+01C", 25, "C", nil, nil),
        ] as [(String, Double, String, Double?, Int?)])
    func parsesElements(_ line: String, _ value: Double, _ unit: String, _ seconds: Double?, _ number: Int?) throws {
        let r = try DMMReading(line: Substring(line))
        #expect(abs(r.value! - value) < 1e-12)
        #expect(r.unit == unit)
        #expect(r.seconds == seconds)
        #expect(r.number == number)
    }

    @Test func overflowHasNoValue() throws {
        let r = try DMMReading(line: "+9.9000000E+37OHM4W,+0001269.500SECS,+00121RDNG#")
        #expect(r.value == nil)
        #expect(r.unit == "OHM4W")
        #expect(r.number == 121)
    }

    @Test(arguments: [
        ("+1.0\u{7f}3E+0", "has no unit"),
        ("OHM4W", "does not start with a number"),
        ("+0001234.500SECS,+00051RDNG#", "no reading"),
        ("+1.0OHM,+2.0OHM", "two readings"),
        ("+1.0OHM,+1.5RDNG#", "not whole"),
        ("", "empty line"),
    ])
    func rejects(_ line: String, _ reason: String) {
        let error = #expect(throws: (any Error).self) { try DMMReading(line: Substring(line)) }
        #expect(error.map { String(describing: $0) }?.contains(reason) == true)
    }
}
