import DAQCore
import Dispatch

/// Starts and stops cleanly: with ordinary input, at once, and with no input.
extension ConformanceSuite {
    static let cleanStates: [LifecycleState] = [.starting, .running, .stopping, .finished]

    /// What is wrong with how a run that should have finished cleanly went.
    static func lifecycleProblems(_ execution: ConformanceRunner.Execution, _ result: RunResult?, deadline: Double)
        -> [String]
    {
        guard let result else { return ["the run did not end within \(Int(deadline)) s (hung)"] }
        var problems: [String] = []
        if result.state != .finished {
            problems.append("the run ended \(result.state): \(result.failureLine ?? "no failure given")")
        }
        let events = execution.log.all
        let subject = events.compactMap { $0.state(of: "subject") }
        if subject != cleanStates {
            problems.append(
                "the plugin went through \(subject.map(\.rawValue)), expected \(cleanStates.map(\.rawValue))")
        }
        let pipeline = events.compactMap { $0.state(of: nil) }
        if pipeline != cleanStates { problems.append("the pipeline went through \(pipeline.map(\.rawValue))") }
        for event in events {
            switch event {
            case .failed(let c, let m): problems.append("failed event from \(c ?? "the pipeline"): \(m)")
            case .warning("subject", let m): problems.append("warning: \(m)")
            case .sinkFailed("subject", let n, let m): problems.append("\(n) samples not delivered: \(m)")
            default: break
            }
        }
        return problems
    }

    /// The ordinary layout: the spec's config, and for transforms and sinks a feed of `input`.
    func makeLayout(config: String? = nil, input: [Sample], end: FeedPlan.End) -> ConformanceRunner.Layout {
        var layout = ConformanceRunner.Layout(config: config ?? spec.config)
        if kind != .source { layout.feeds = [FeedPlan(samples: input, perRead: 100, end: end)] }
        return layout
    }

    func startsAndStops() throws -> ConformanceResult.Verdict {
        var layout = makeLayout(input: spec.input(spec.inputCount), end: .finish)
        if let live = spec.live { layout.options.maxSamples = live.count }
        let execution = try runner.start(layout)
        defer { execution.cleanUp() }
        if let live = spec.live { try live.produce(live.count) }
        let result = execution.end(timeout: spec.deadline)
        var problems = Self.lifecycleProblems(execution, result, deadline: spec.deadline)
        if let result {
            let received = execution.counts("out0").data
            let fed = kind == .source ? received : spec.inputCount
            problems +=
                kind == .source ? drainProblems(execution, fedBy: nil) : drainProblems(execution, fedBy: "feed0")
            problems +=
                kind == .source ? outputProblems(fed: fed, received: received, subject: execution.stats("subject")) : []
            if let check = spec.checkOutput, let problem = check(execution.outcome(result, fed: fed)) {
                problems.append(problem)
            }
        }
        return Self.verdict(problems)
    }

    func stopsAtOnce() throws -> ConformanceResult.Verdict {
        let execution = try runner.start(makeLayout(input: spec.input(spec.inputCount), end: .idle))
        defer { execution.cleanUp() }
        execution.run.stop()
        let result = execution.end(timeout: spec.deadline)
        var problems = Self.lifecycleProblems(execution, result, deadline: spec.deadline)
        if result != nil { problems += drainProblems(execution, fedBy: kind == .source ? nil : "feed0") }
        return Self.verdict(problems)
    }

    func stopsWithoutInput() throws -> ConformanceResult.Verdict {
        if kind == .source && spec.live == nil && spec.emptyConfig == nil {
            return .skipped("no configuration that yields nothing was given (ConformanceSpec.emptyConfig)")
        }
        let execution = try runner.start(makeLayout(config: spec.emptyConfig, input: [], end: .idle))
        defer { execution.cleanUp() }
        if kind != .source || spec.live != nil {
            // Fed nothing (or a device that delivers nothing): only the stop ends the run.
            if kind != .source { _ = FeedPlan.waitAllRead(execution, timeout: spec.deadline) }
            execution.run.stop()
        }
        let result = execution.end(timeout: spec.deadline)
        var problems = Self.lifecycleProblems(execution, result, deadline: spec.deadline)
        let taken = execution.stats("subject")?.samplesIn ?? 0
        if taken != 0 { problems.append("took \(taken) samples though none were fed") }
        if kind == .source, case let got = execution.counts("out0").data, got != 0 {
            problems.append("emitted \(got) samples with nothing to read")
        }
        return Self.verdict(problems)
    }
}

extension FeedPlan {
    /// Waits until the feed of `execution` has read every sample.
    static func waitAllRead(_ execution: ConformanceRunner.Execution, timeout: Double, feed: Int = 0) -> Bool {
        guard let plan = execution.plan(feed) else { return true }
        return plan.allRead.wait(timeout: .now() + timeout) == .success
    }
}
