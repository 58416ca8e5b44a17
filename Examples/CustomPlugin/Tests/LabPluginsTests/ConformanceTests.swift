import DAQCore
import DAQTesting
import LabPlugins
import Testing

/// The conformance suite that every built-in plugin passes, on this package's transform: one
/// call, with the input it needs and the error it reports.
@Suite("lab plugins conform")
struct LabConformanceTests {
    /// Resistances of a Pt100 between about −50 °C and +75 °C, 10 ms apart.
    static func ohms(_ count: Int) -> [Sample] {
        (0..<count).map { i in
            let t = Double(i) / 100
            return Sample(
                timestamp: 1_700_000_000 + t, uptime: t, fields: ["resistance": .double(80 + Double(i % 100) / 2)])
        }
    }

    @Test func rtdConforms() throws {
        let outOfRange = [Sample(timestamp: 1_700_000_000, uptime: 0, fields: ["resistance": .double(5000)])]
        try PluginConformance.verify(
            .transform(RTDTransform.self, module: "LabPlugins"),
            ConformanceSpec(
                input: Self.ohms, failure: FailureCase(input: outOfRange, report: .warning, messageContains: "outside"),
                reasons: [.neverBlocks: "it does no I/O: arithmetic on each batch"]))
    }
}
