import DAQCore

/// One property the conformance suite checks.
public enum ConformanceCheck: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// A run with ordinary input: every lifecycle state in order, no failure, no warning, finished.
    case startsAndStops = "starts and stops cleanly"
    /// A run stopped right after it started ends cleanly.
    case stopsAtOnce = "stops right after start"
    /// A run with no input at all ends cleanly.
    case stopsWithoutInput = "stops with no input"
    /// What was fed before a stop comes out.
    case drainsOnStop = "drains on stop"
    /// A run-time error arrives as an event naming the component, and the run ends.
    case errorsAreEvents = "reports errors as events"
    /// Other stages keep running while copies of the plugin wait on their I/O.
    case neverBlocks = "never blocks the scheduler's queues"
    /// An empty batch, handed over directly, is taken without error.
    case emptyBatch = "handles an empty batch"
    /// A batch of ``ConformanceSpec/hugeCount`` samples goes through in one piece.
    case hugeBatch = "handles a huge batch"

    public var description: String { rawValue }
}

/// How one check went.
public struct ConformanceResult: Sendable, CustomStringConvertible {
    /// What it checked, and how it ended.
    public enum Verdict: Sendable, Equatable {
        case passed
        case failed(String)
        case skipped(String)
    }

    /// The property.
    public var check: ConformanceCheck
    /// The verdict, with why it failed or why it does not apply.
    public var verdict: Verdict
    /// Wall seconds the check took.
    public var seconds: Double

    public var description: String {
        let time = "(\(Int(seconds * 1000)) ms)"
        switch verdict {
        case .passed: return "✔ \(check) \(time)"
        case .failed(let why): return "✘ \(check) \(time): \(why)"
        case .skipped(let why): return "– \(check): skipped: \(why)"
        }
    }
}

/// Every check's result for one plugin.
public struct ConformanceReport: Sendable, CustomStringConvertible {
    /// The plugin, as `kind type` (`transform window`).
    public var plugin: String
    /// One result per check, in ``ConformanceCheck`` order.
    public var results: [ConformanceResult]

    /// The checks that failed.
    public var failures: [ConformanceResult] {
        results.filter { if case .failed = $0.verdict { return true } else { return false } }
    }

    /// The checks that were skipped, with their reasons.
    public var skipped: [ConformanceResult] {
        results.filter { if case .skipped = $0.verdict { return true } else { return false } }
    }

    /// Whether no check failed.
    public var passed: Bool { failures.isEmpty }

    public var description: String {
        (["conformance of \(plugin):"] + results.map { "  \($0)" }).joined(separator: "\n")
    }
}

/// Thrown by ``PluginConformance/verify(_:_:)`` when a check failed; the description lists each
/// failed property and why.
public struct ConformanceFailure: Error, CustomStringConvertible {
    /// The full report.
    public var report: ConformanceReport

    /// Wraps a report that has failures.
    public init(report: ConformanceReport) {
        self.report = report
    }

    public var description: String {
        (["\(report.plugin) fails \(report.failures.count) conformance check(s):"]
            + report.failures.map { "  \($0)" } + ["", report.description]).joined(separator: "\n")
    }
}
