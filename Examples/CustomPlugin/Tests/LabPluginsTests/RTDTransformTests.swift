import DAQCore
import DAQTesting
import LabPlugins
import Testing

@Suite("lab.rtd")
struct RTDTransformTests {
    func reading(_ uptime: Double, _ ohms: Value) -> Sample {
        Sample(uptime: uptime, fields: ["resistance": ohms, "unit": "OHM4W"])
    }

    @Test func addsTemperatureKeepingEveryRow() throws {
        let h = try TransformHarness(RTDTransform.self)
        let out = try h.push([reading(0, 100.0), reading(0.5, 138.5055), reading(1, .null), reading(1.5, 5.0)])
        #expect(out.count == 4)
        #expect(out.map { $0["unit"] } == Array(repeating: "OHM4W", count: 4))
        let t = out.map { $0["temperature"]?.doubleValue }
        #expect(abs(t[0]! - 0) < 1e-9)
        #expect(abs(t[1]! - 100) < 0.001)
        // An overflow stays null without a warning; a resistance below −200 °C is warned about.
        #expect(t[2] == nil && out[2]["temperature"] == .null)
        #expect(t[3] == nil && out[3]["temperature"] == .null)
        #expect(h.events.count == 1)
        #expect("\(h.events)".contains("resistance 5.0 Ω is outside"))
    }

    @Test func warnsOnceThenCountsAtTheEnd() throws {
        let h = try TransformHarness(RTDTransform.self)
        _ = try h.push([reading(0, 1.0), reading(1, 2.0), reading(2, 3.0)])
        #expect(try h.finish().isEmpty)
        #expect(h.events.count == 2)
        #expect("\(h.events)".contains("3 resistances were outside"))
    }

    @Test func pt1000TwoWireInKelvin() throws {
        let h = try TransformHarness(
            RTDTransform.self, config: "r0: 1000\nlead_resistance: 1.2\nunit: kelvin\nfield: r\noutput: tk")
        let out = try h.push([Sample(uptime: 0, fields: ["r": 1001.2])])
        #expect(abs(out[0]["tk"]!.doubleValue! - 273.15) < 1e-9)
    }

    @Test func certificateCoefficientsReplaceTheIECOnes() throws {
        // A sensor whose certificate gives A 1 % above IEC reads cooler for the same resistance.
        let h = try TransformHarness(RTDTransform.self, config: "a: 3.947383e-3\nunit: fahrenheit")
        let out = try h.push([reading(0, 138.5055)])
        let iec = CallendarVanDusen(r0: 100)
        var custom = iec
        custom.a = 3.947383e-3
        let expected = custom.celsius(ohms: 138.5055)! * 9 / 5 + 32
        #expect(abs(out[0]["temperature"]!.doubleValue! - expected) < 1e-9)
        #expect(expected < 212)
    }

    @Test(arguments: [
        "r0: 0", "r0: -100", "lead_resistance: -1", "lead_resistance: 100", "b: 0", "field: ''", "unit: rankine",
    ])
    func invalidConfigurationIsRefused(_ yaml: String) {
        #expect(throws: (any Error).self) { try PluginConfigLoader.decode(RTDTransform.Configuration.self, yaml: yaml) }
    }
}
