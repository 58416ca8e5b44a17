import DAQCore
import Foundation

/// The conformance suite: runs a plugin through every property a well-behaved plugin has, each
/// a named check, so a failure says which property broke and why.
///
/// One line in a test:
///
/// ```swift
/// @Test func conforms() throws {
///     try PluginConformance.verify(.transform(ScaleTransform.self), ConformanceSpec(config: "factor: 2"))
/// }
/// ```
///
/// The checks (see ``ConformanceCheck``):
/// - **starts and stops cleanly**: a run with ordinary input goes `starting → running →
///   stopping → finished` for the plugin and the pipeline, with no failure and no warning;
///   so does a run stopped right after it started, and one with no input at all.
/// - **drains on stop**: what was fed before a stop is taken by the plugin and comes out as
///   ``DrainExpectation`` says; a source's samples all reach the sink after it.
/// - **reports errors as events**: with ``ConformanceSpec/failure``'s configuration or input,
///   an event names the component and the run ends (it does not crash or hang).
/// - **never blocks the scheduler's queues**: several copies of the plugin wait on I/O that
///   does not complete (``ConformanceSpec/stall``) while a heartbeat branch of the same
///   pipeline must run to its end. The stage queues share a pool a few threads wide, so copies
///   that block their queues starve the heartbeat, which then never ends: the check waits for
///   events with a generous deadline, never for a fixed time.
/// - **handles an empty batch**, handed to `process` or `write` directly (the engine itself
///   never hands one over), and **a huge batch** of ``ConformanceSpec/hugeCount`` samples in one.
///
/// Every run is bounded by ``ConformanceSpec/deadline``: a plugin that hangs fails its check.
///
/// # Thread safety
/// Each call builds its own pipelines; calls may run concurrently.
public enum PluginConformance {
    /// How many copies the non-blocking check runs: enough to occupy every thread the shared
    /// pool may have (Dispatch on Linux oversubscribes a blocked pool to twice the cores).
    public static var stalledCopies: Int { max(8, 4 * activeProcessors) }

    private static let activeProcessors = ProcessInfo.processInfo.activeProcessorCount

    /// Runs every check on `plugin` and reports each.
    public static func check(_ plugin: PluginDescriptor, _ spec: ConformanceSpec = ConformanceSpec())
        -> ConformanceReport
    {
        let suite = ConformanceSuite(runner: ConformanceRunner(plugin: plugin, spec: spec))
        let results = ConformanceCheck.allCases.map { suite.run($0) }
        return ConformanceReport(plugin: "\(plugin.kind.rawValue) \(plugin.typeName)", results: results)
    }

    /// Runs every check on `plugin`.
    /// - Throws: ``ConformanceFailure`` listing each failed check and why.
    /// - Returns: the report, whose skipped checks say why they do not apply.
    @discardableResult
    public static func verify(_ plugin: PluginDescriptor, _ spec: ConformanceSpec = ConformanceSpec()) throws
        -> ConformanceReport
    {
        let report = check(plugin, spec)
        guard report.passed else { throw ConformanceFailure(report: report) }
        return report
    }

    /// Checks a source type with `config`.
    /// - Throws: ``ConformanceFailure``.
    @discardableResult
    public static func verify<T: SourcePlugin>(_ type: T.Type, config: String, expecting count: Int) throws
        -> ConformanceReport
    {
        try verify(.source(type), ConformanceSpec(config: config, drain: .exactly(count), hugeCount: nil))
    }

    /// Checks a transform type with `config`, fed `input` (by default counter samples).
    /// - Throws: ``ConformanceFailure``.
    @discardableResult
    public static func verify<T: TransformPlugin>(
        _ type: T.Type, config: String = "", input: [Sample]? = nil, drain: DrainExpectation = .passThrough
    ) throws -> ConformanceReport {
        var spec = ConformanceSpec(config: config, drain: drain)
        if let input {
            spec.input = { n in Array(input.prefix(n)) }
            spec.inputCount = input.count
        }
        return try verify(.transform(type), spec)
    }

    /// Checks a sink type with `config`.
    /// - Throws: ``ConformanceFailure``.
    @discardableResult
    public static func verify<T: SinkPlugin>(_ type: T.Type, config: String = "") throws -> ConformanceReport {
        try verify(.sink(type), ConformanceSpec(config: config, drain: .consumed))
    }
}

/// Runs one check at a time; each check sits in its own file as an extension.
struct ConformanceSuite {
    let runner: ConformanceRunner
    var spec: ConformanceSpec { runner.spec }
    var kind: PluginKind { runner.kind }

    func run(_ check: ConformanceCheck) -> ConformanceResult {
        let start = DispatchTime.now().uptimeNanoseconds
        let verdict: ConformanceResult.Verdict
        if let reason = spec.reasons[check] {
            verdict = .skipped(reason)
        } else {
            do {
                verdict = try perform(check)
            } catch {
                verdict = .failed("\(error)")
            }
        }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        return ConformanceResult(check: check, verdict: verdict, seconds: seconds)
    }

    private func perform(_ check: ConformanceCheck) throws -> ConformanceResult.Verdict {
        switch check {
        case .startsAndStops: return try startsAndStops()
        case .stopsAtOnce: return try stopsAtOnce()
        case .stopsWithoutInput: return try stopsWithoutInput()
        case .drainsOnStop: return try drainsOnStop()
        case .errorsAreEvents: return try errorsAreEvents()
        case .neverBlocks: return try neverBlocks()
        case .emptyBatch: return try emptyBatch()
        case .hugeBatch: return try hugeBatch()
        }
    }

    /// Problems joined into a verdict: passed when there are none.
    static func verdict(_ problems: [String]) -> ConformanceResult.Verdict {
        problems.isEmpty ? .passed : .failed(problems.joined(separator: "; "))
    }
}
