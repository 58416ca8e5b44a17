import DAQCore

/// Never blocks the scheduler's queues: while copies of the plugin wait on I/O that does not
/// complete, a heartbeat branch of the same pipeline must still run to its end.
///
/// Every stage queue targets one shared pool a few threads wide. A plugin that waits on its
/// I/O by blocking its queue holds a pool thread; ``PluginConformance/stalledCopies`` copies
/// hold them all, and the heartbeat, which needs a pool thread for each of its hundreds of
/// queue turns, cannot end until the I/O completes, which the check lets happen only after it
/// has waited (by events, with a deadline that only a real block reaches). A plugin that waits
/// asynchronously leaves the pool free and the heartbeat ends at once.
extension ConformanceSuite {
    /// Samples the heartbeat emits, one per read: one queue turn each.
    static let heartbeatSamples = 256

    func neverBlocks() throws -> ConformanceResult.Verdict {
        guard let stall = spec.stall else {
            return .skipped("it waits on no I/O that could block (ConformanceSpec.stall)")
        }
        let copies = PluginConformance.stalledCopies
        var layout = ConformanceRunner.Layout(config: stall.config, copies: copies)
        if kind != .source {
            let input = Batch(stream: "feed", samples: spec.input(stall.inputCount))
            layout.feeds = (0..<copies).map { _ in FeedPlan(batch: input, perRead: 64, end: .idle) }
            layout.buffer = 64
        }
        let heartbeat = FeedPlan(
            samples: ConformanceSpec.counterSamples(Self.heartbeatSamples), perRead: 1, end: .finish, gated: true)
        layout.heartbeat = heartbeat
        let execution = try runner.start(layout)
        defer { execution.cleanUp() }
        var problems: [String] = []
        let names = (0..<copies).map { ConformanceRunner.subject($0, of: copies) }
        if !waitUntilStalled(execution, stall.signal, copies: copies) {
            problems.append(
                "the \(copies) copies did not all reach their I/O (\(stall.signal)) within \(Int(spec.deadline)) s")
        }
        if problems.isEmpty {
            heartbeat.open()
            let beat = execution.log.wait(timeout: spec.deadline) { $0.contains { $0.state(of: "hbout") == .finished } }
            if !beat {
                let got = execution.counts("hbout").data
                problems.append(
                    "while \(copies) copies waited on their I/O, a heartbeat branch got \(got) of \(Self.heartbeatSamples) samples through in \(Int(spec.deadline)) s: the plugin blocks the scheduler's queues"
                )
            }
        }
        let failures = execution.log.all.compactMap { e -> String? in
            if case .failed(let c?, let m) = e, names.contains(c) { return "\(c): \(m)" }
            return nil
        }
        if !failures.isEmpty {
            problems.append("copies failed while waiting: \(failures.prefix(2).joined(separator: "; "))")
        }
        stall.release?()
        // Cancelled while it waits, the plugin must still let the run end.
        execution.run.cancel()
        if execution.end(timeout: spec.deadline) == nil {
            problems.append("cancelled while waiting on its I/O, the run did not end within \(Int(spec.deadline)) s")
        }
        return Self.verdict(problems)
    }

    private func waitUntilStalled(_ execution: ConformanceRunner.Execution, _ signal: StallCase.Signal, copies: Int)
        -> Bool
    {
        switch signal {
        case .backpressure:
            // Each copy's small input buffer is full: the copy has stopped taking input.
            let feeds = Set((0..<copies).map { "feed\($0)" })
            return execution.log.wait(timeout: spec.deadline) { events in
                var seen = Set<String>()
                for case .backpressure(let c) in events where feeds.contains(c) { seen.insert(c) }
                return seen.count == copies
            }
        case .started:
            let subjects = (0..<copies).map { ConformanceRunner.subject($0, of: copies) }
            return execution.log.wait(timeout: spec.deadline) { events in
                subjects.allSatisfy { name in events.contains { $0.state(of: name) == .running } }
            }
        case .firstSample:
            let sinks = Set((0..<copies).map { "out\($0)" })
            return execution.log.wait(timeout: spec.deadline) { events in
                // A sink's first `sent` is the start marker; a second one carries data.
                var sends: [String: Int] = [:]
                for case .sent(let s, _, _) in events where sinks.contains(s) { sends[s, default: 0] += 1 }
                return sends.values.filter { $0 >= 2 }.count == copies
            }
        }
    }
}
