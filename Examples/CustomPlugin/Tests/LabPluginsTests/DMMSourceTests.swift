import DAQCore
import DAQTesting
import LabPlugins
import Testing

@Suite("lab.dmm")
struct DMMSourceTests {
    @Test func readsTheRampOnTheMetersClock() throws {
        let h = try SourceHarness(DMMSource.self, config: "path: \(Fixtures.ramp)\non_bad_line: skip")
        let (samples, status) = try h.read(batchSize: 16)
        h.stop()
        #expect(status == .finished)
        #expect(samples.count == 121)
        // The meter's SECS timer, counted from the first line, is the run-clock time.
        #expect(samples.map(\.uptime) == (0...120).map { Double($0) * 0.5 })
        #expect(samples.first?["resistance"] == .double(96.085879))
        #expect(samples.first?["unit"] == "OHM4W")
        #expect(samples.map { $0["reading"]?.intValue } == (51...171).map { Int64($0) })
        let overflows = samples.filter { $0["overflow"] == true }
        #expect(overflows.map(\.uptime) == [35])
        #expect(overflows.first?["resistance"] == .null)
        // The garbled line is skipped and named.
        let warnings = h.events.compactMap { e -> String? in
            if case .warning(_, let message) = e { return message }
            return nil
        }
        #expect(warnings.count == 1)
        #expect(warnings.first?.hasSuffix("pt100-ramp.txt:42: '+1.0\\u{7f}3E+0' has no unit after its number") == true)
    }

    @Test func aBadLineFailsByDefaultNamingFileAndLine() throws {
        let path = try Fixtures.file("+1.0E+02OHM,+0.0SECS\nnot a reading\n")
        let h = try SourceHarness(DMMSource.self, config: "path: \(path)")
        let error = #expect(throws: (any Error).self) { _ = try h.read() }
        #expect(
            error.map { String(describing: $0) }?.contains("\(path):2: 'not a reading' does not start with a number")
                == true)
    }

    @Test func readingsWithoutTimerAreTimedByRate() throws {
        let path = try Fixtures.file("+1.0E+00VDC\n\n+2.0E+00VDC\n+3.0E+00VDC\n")
        let h = try SourceHarness(DMMSource.self, config: "path: \(path)\nrate: 4")
        let samples = try h.read().samples
        #expect(samples.map(\.uptime) == [0, 0.25, 0.5])
        #expect(samples.map { $0["voltage"] } == [1.0, 2.0, 3.0])
        #expect(samples.allSatisfy { $0["reading"] == .null && $0["overflow"] == false })
    }

    @Test func readingsWithoutTimerOrRateAreAnError() throws {
        let path = try Fixtures.file("+1.0E+00VDC\n")
        let h = try SourceHarness(DMMSource.self, config: "path: \(path)")
        let error = #expect(throws: (any Error).self) { _ = try h.read() }
        #expect(error.map { String(describing: $0) }?.contains("set 'rate'") == true)
    }

    @Test func fieldOverridesTheUnitsName() throws {
        let path = try Fixtures.file("+1.5E+00VDC,+0.0SECS\n")
        let h = try SourceHarness(DMMSource.self, config: "path: \(path)\nfield: cell_voltage")
        #expect(try h.read().samples.first?["cell_voltage"] == 1.5)
    }

    @Test(arguments: ["field: unit", "rate: 0", "path: ''"])
    func invalidConfigurationIsRefused(_ yaml: String) throws {
        let config = yaml.hasPrefix("path") ? yaml : "path: x.txt\n\(yaml)"
        #expect(throws: ConfigIssue.self) { try PluginConfigLoader.decode(DMMSource.Configuration.self, yaml: config) }
    }
}
