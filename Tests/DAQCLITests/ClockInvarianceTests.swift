import DAQCLI
import DAQCore
import DAQKit
import DAQTesting
import Foundation
import Testing

/// Every shipped pipeline that needs no server or device gives the same rows (bar uptime) on the
/// virtual and the replay clock, with batches of 1, 7 and 4,096 samples. The LSL pipelines are
/// live by nature (an lsl source or outlet refuses the virtual clock) and need a network
/// namespace: LSLPipelinesTests run them there.
@Suite("pipelines/ at every clock")
struct ClockInvarianceTests {
    static var files: [String] {
        PipelinesTests.files.filter { file in
            (try? PipelinesTests.needsHardware(file)) == false && (try? PipelinesTests.needsBroker(file)) == false
                && (try? PipelinesTests.needsLSL(file)) == false && (try? PipelinesTests.needsDatabase(file)) == false
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

    /// What makes the runs of `file` comparable: the console sink's text goes to standard
    /// output, so a file sink in its place keeps the test's output clean and compares the same
    /// rows; `calibration: auto` is fitted in a first pass only the virtual clock makes, so the
    /// other clocks take a given fit (CalibrationInvarianceTests check a fit from a manifest).
    static func overrides(_ file: String) -> [String] {
        var overrides = file == "hello.yaml" ? ["sinks.screen.type=file", "sinks.screen.path=hello.jsonl"] : []
        if file == "activity-summary.yaml" { overrides.append("transforms.cal.calibration=off") }
        return overrides
    }

    /// The variables each run gets: activity-summary's 38-hour default would take a replay at
    /// 100× over 20 minutes, so it reads the three-minute recording.
    static func environment(_ file: String) -> [String: String] {
        file == "activity-summary.yaml" ? ["COUNT": "5000", "INPUT": "recordings/wrist.cwa"] : ["COUNT": "5000"]
    }

    @Test(arguments: files)
    func sameRowsAtEveryClockAndBatchSize(_ file: String) throws {
        let differences = try ClockInvariance.differences(
            pipeline: "pipelines/" + file, plugins: BuiltinPlugins.all, environment: Self.environment(file),
            overrides: Self.overrides(file), replaySpeed: 100)
        #expect(differences.isEmpty, "\(differences.prefix(5).joined(separator: "\n"))")
    }

    /// Live, as fast as possible, the same: the first seconds of each pipeline's input at the
    /// realtime clock, with batches of 7 and 4,096, against the virtual clock cut alike. Not
    /// exec-magnitude: its `counter` is a program whose lines are stamped when they arrive, which
    /// at the realtime clock is when the program wrote them, not when the run's data says.
    @Test(arguments: files.filter { $0 != "exec-magnitude.yaml" })
    func sameRowsLiveAsVirtual(_ file: String) throws {
        let differences = try ClockInvariance.differences(
            pipeline: "pipelines/" + file, plugins: BuiltinPlugins.all, environment: Self.environment(file),
            overrides: Self.overrides(file), duration: file == "activity-summary.yaml" ? 11 : 2.5,
            variants: ClockInvariance.realtimeVariants)
        #expect(differences.isEmpty, "\(differences.prefix(5).joined(separator: "\n"))")
    }
}
