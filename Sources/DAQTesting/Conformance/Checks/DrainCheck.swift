import DAQCore

/// Drains on stop: what was fed before a stop is taken, and comes out as the spec expects.
extension ConformanceSuite {
    /// What went missing between the feed (or the source) and the sink after it.
    func drainProblems(_ execution: ConformanceRunner.Execution, fedBy feed: String?) -> [String] {
        let subject = execution.stats("subject")
        let received = execution.counts("out0").data
        guard let feed else {
            // A source: everything it emitted before the stop reaches the sink.
            let emitted = subject?.samplesOut ?? 0
            return emitted == received ? [] : ["emitted \(emitted) samples but \(received) reached the sink"]
        }
        let fed = execution.stats(feed)?.samplesOut ?? 0
        let taken = subject?.samplesIn ?? 0
        if taken != fed { return ["took \(taken) of the \(fed) samples fed before the stop"] }
        return outputProblems(fed: fed, received: received, subject: subject)
    }

    /// Whether what came out of `fed` samples is what ``ConformanceSpec/drain`` promises.
    func outputProblems(fed: Int, received: Int, subject: StageStatistics?) -> [String] {
        if kind == .sink {
            let sent = subject?.sent ?? 0
            return sent >= fed ? [] : ["wrote \(sent) samples (markers included) of \(fed) fed"]
        }
        switch spec.drain {
        case .passThrough:
            return received == fed ? [] : ["\(fed) samples in, \(received) out; expected every one"]
        case .atMost:
            return received <= fed ? [] : ["\(fed) samples in, \(received) out; expected at most as many"]
        case .flushed:
            return fed == 0 || received > 0 ? [] : ["\(fed) samples in, nothing out: what it held was not flushed"]
        case .exactly(let n):
            return received == n ? [] : ["\(received) samples out; expected \(n)"]
        case .consumed:
            return []
        }
    }

    func drainsOnStop() throws -> ConformanceResult.Verdict {
        if kind == .source { return try sourceDrains() }
        let input = spec.input(spec.inputCount)
        let execution = try runner.start(makeLayout(input: input, end: .idle))
        defer { execution.cleanUp() }
        // The feed goes idle once it has read everything: only the stop ends the run.
        guard FeedPlan.waitAllRead(execution, timeout: spec.deadline) else {
            execution.run.cancel()
            return .failed("the feed could not hand over its \(input.count) samples within \(Int(spec.deadline)) s")
        }
        execution.run.stop()
        guard let result = execution.end(timeout: spec.deadline) else {
            return .failed("the run did not end within \(Int(spec.deadline)) s of the stop (hung)")
        }
        var problems = Self.lifecycleProblems(execution, result, deadline: spec.deadline)
        problems += drainProblems(execution, fedBy: "feed0")
        if let check = spec.checkOutput, let problem = check(execution.outcome(result, fed: input.count)) {
            problems.append(problem)
        }
        return Self.verdict(problems)
    }

    /// A source is stopped once its first data have reached the sink: everything it emitted
    /// by then, and only that, must reach the sink.
    private func sourceDrains() throws -> ConformanceResult.Verdict {
        var layout = makeLayout(input: [], end: .finish)
        if let live = spec.live { layout.options.maxSamples = live.count }
        let execution = try runner.start(layout)
        defer { execution.cleanUp() }
        if let live = spec.live { try live.produce(live.count) }
        // The sink's first `sent` is the start marker; a second one carries data.
        _ = execution.log.wait(timeout: spec.deadline) { events in
            var sends = 0
            for e in events {
                if case .sent(sink: "out0", _, _) = e { sends += 1 }
                if e.state(of: nil)?.isFinal == true { return true }
            }
            return sends >= 2
        }
        execution.run.stop()
        guard let result = execution.end(timeout: spec.deadline) else {
            return .failed("the run did not end within \(Int(spec.deadline)) s of the stop (hung)")
        }
        var problems = Self.lifecycleProblems(execution, result, deadline: spec.deadline)
        problems += drainProblems(execution, fedBy: nil)
        if execution.counts("out0").data == 0 { problems.append("nothing reached the sink before the stop") }
        return Self.verdict(problems)
    }
}
