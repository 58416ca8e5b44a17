import DAQCLI
import DAQCore
import DAQKit
import DAQTesting
import Foundation
import Testing

/// Every shipped pipeline that needs no server or device gives the same rows (bar uptime) on the
/// virtual and the replay clock, with batches of 1, 7 and 4,096 samples.
@Suite("pipelines/ at every clock")
struct ClockInvarianceTests {
    static var files: [String] {
        PipelinesTests.files.filter { file in
            (try? PipelinesTests.needsHardware(file)) == false && (try? PipelinesTests.needsBroker(file)) == false
                && !file.hasPrefix("resolve-")
        }
    }

    @Test func theCheckedPipelinesAreTheShippedOnesWithoutAServerOrADevice() {
        #expect(
            Self.files == [
                "accelerometer-replay.yaml", "activity-summary.yaml", "barcode-replay.yaml", "batch-features.yaml",
                "bench-engine.yaml",
                "ble-decode.yaml", "ble-discovery.yaml", "device-replay.yaml", "exec-magnitude.yaml", "gs1-decode.yaml",
                "hello.yaml",
                "reference-job.yaml",
            ])
    }

    @Test(arguments: files)
    func sameRowsAtEveryClockAndBatchSize(_ file: String) throws {
        // The console sink's text goes to standard output: a file sink in its place keeps the
        // test's output clean and compares the same rows.
        var overrides = file == "hello.yaml" ? ["sinks.screen.type=file", "sinks.screen.path=hello.jsonl"] : []
        // `calibration: auto` is fitted in a first pass only the virtual clock makes; the other
        // clocks take a given fit, so both runs take the same one (CalibrationInvarianceTests
        // check a fit from a manifest likewise).
        if file == "activity-summary.yaml" { overrides.append("transforms.cal.calibration=off") }
        let differences = try ClockInvariance.differences(
            pipeline: "pipelines/" + file, plugins: BuiltinPlugins.all, environment: ["COUNT": "5000"],
            overrides: overrides, replaySpeed: 100)
        #expect(differences.isEmpty, "\(differences.prefix(5).joined(separator: "\n"))")
    }
}
