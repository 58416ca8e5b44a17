import LabPlugins
import Testing

@Suite("Callendar–Van Dusen")
struct CallendarVanDusenTests {
    /// IEC 60751 Pt100 table values (ohms to 0.01 Ω, so degrees to about 0.03 °C).
    @Test(arguments: [
        (18.52, -200.0), (60.26, -100), (96.09, -10), (100.00, 0), (138.51, 100), (175.86, 200), (390.48, 850),
    ])
    func matchesTheIECTable(_ ohms: Double, _ celsius: Double) throws {
        let t = try #require(CallendarVanDusen(r0: 100).celsius(ohms: ohms))
        #expect(abs(t - celsius) < 0.03, "\(ohms) Ω gave \(t) °C")
    }

    @Test func invertsTheEquationAcrossItsRange() throws {
        let pt1000 = CallendarVanDusen(r0: 1000)
        for step in 0...2100 {
            let t = -200 + Double(step) * 0.5
            let back = try #require(pt1000.celsius(ohms: pt1000.resistance(celsius: t)))
            #expect(abs(back - t) < 1e-6, "\(t) °C came back as \(back)")
        }
    }

    @Test(arguments: [0, -5, 10, 18.4, 390.6, 400, .infinity, .nan])
    func refusesResistancesOutsideTheRange(_ ohms: Double) {
        #expect(CallendarVanDusen(r0: 100).celsius(ohms: ohms) == nil)
    }
}
