import ArgumentParser

/// The ranges of `daq`'s numeric options, in one place so `--help`, the checks and the tests
/// agree. A number from the command line is checked before anything uses it: past its range it
/// is a usage error naming the option, never a value that overflows later (a tap's rate of
/// 9223372036854775807 trapped the run it watched) or that makes a timer wait forever.
enum OptionRange {
    /// `--max-samples` and `--count`: counted in `Int`s that grow; a quadrillion is beyond any run.
    static let samples = 1...1_000_000_000_000_000
    /// `--batch-size`: a batch is allocated whole.
    static let batchSize = 1...1_048_576
    /// `--duration`: ten years, in seconds; beyond it a timer's nanoseconds overflow.
    static let duration = 0.000_001...315_360_000.0
    /// `--flush-interval`: 0 (only at the end) to a day.
    static let flushInterval = 0.0...86_400.0
    /// `daq batch --jobs`.
    static let jobs = 1...256
    /// `daq tap --max-rate`, as the control socket takes it.
    static let tapRate = TapSubscriber.rates
    /// `daq top --interval`: below the control socket's idle timeout, which would close its connection.
    static let interval = 0.05...60.0
    /// `daq resolver serve --port`: 0 takes a free one.
    static let port = 0...65_535
    /// `daq resolver serve --idle-timeout` and `daq run --control-idle-timeout`, seconds.
    static let idleTimeout = 0.1...3_600.0
    /// `daq resolve --timeout`.
    static let timeout = 0.001...3_600.0

    /// Throws a usage error naming `flag` when `value` lies outside `range` (NaN always does).
    static func check<T: Comparable>(_ value: T, _ flag: String, in range: ClosedRange<T>) throws {
        guard range.contains(value) else {
            throw ValidationError("\(flag) must be from \(range.lowerBound) to \(range.upperBound); found \(value)")
        }
    }
}
