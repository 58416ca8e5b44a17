import Foundation
import Testing

/// Every numeric option has a range: past it, a usage error naming the option (exit 64), never
/// a number that overflows later or a timer that never fires.
@Suite("numeric option ranges")
struct OptionRangeTests {
    @Test(arguments: [
        (["run", "pipelines/hello.yaml", "--max-samples", "9223372036854775807"], "--max-samples must be from 1 to "),
        (["run", "pipelines/hello.yaml", "--batch-size", "4294967296"], "--batch-size must be from 1 to 1048576"),
        (["run", "pipelines/hello.yaml", "--duration", "1e300"], "--duration must be from "),
        (["run", "pipelines/hello.yaml", "--flush-interval", "inf"], "--flush-interval must be from 0.0 to 86400.0"),
        (["run", "pipelines/hello.yaml", "--flush-interval", "nan"], "--flush-interval must be from 0.0 to 86400.0"),
        (["tap", "nothing", "--max-rate", "9223372036854775807"], "--max-rate must be from 1 to 1000000"),
        (["tap", "nothing", "--count", "9223372036854775807"], "--count must be from 1 to "),
        (["top", "nothing", "--interval", "1e9"], "--interval must be from 0.05 to 60.0"),
        (
            ["batch", "pipelines/reference-job.yaml", "--input", "x", "--output", "y", "--jobs", "100000"],
            "--jobs must be from 1 to 256"
        ),
        (
            ["resolve", "x", "--url", "http://127.0.0.1:9", "--timeout", "1e30"],
            "--timeout must be from 0.001 to 3600.0"
        ),
    ])
    func aNumberOutOfRangeIsAUsageError(arguments: [String], message: String) throws {
        let r = try DAQBinary.run(arguments)
        #expect(r.status == 64, "exit \(r.status): \(r.err)")
        #expect(r.err.contains(message), "\(r.err)")
    }
}
