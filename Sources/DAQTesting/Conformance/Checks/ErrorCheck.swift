import DAQCore

/// Reports errors as events: a failure at run time arrives as an event naming the component,
/// and the run ends instead of crashing or hanging.
extension ConformanceSuite {
    func errorsAreEvents() throws -> ConformanceResult.Verdict {
        guard let failure = spec.failure else {
            return .skipped("no failing configuration or input was given (ConformanceSpec.failure)")
        }
        let input = failure.input ?? spec.input(spec.inputCount)
        let execution: ConformanceRunner.Execution
        do {
            execution = try runner.start(makeLayout(config: failure.config, input: input, end: .finish))
        } catch let error as PipelineStartError {
            return refusedAtStart(error, failure)
        }
        defer { execution.cleanUp() }
        if failure.report == .refusedAtStart {
            execution.run.cancel()
            _ = execution.end(timeout: spec.deadline)
            return .failed("the run started; expected it to refuse with an error naming the component")
        }
        guard let result = execution.end(timeout: spec.deadline) else {
            return .failed("the run did not end within \(Int(spec.deadline)) s of the failure (hung)")
        }
        let messages = execution.log.all.compactMap { event -> (FailureCase.Report, String)? in
            switch event {
            case .failed("subject", let e): return (.fatal, e.message)
            case .sinkFailed("subject", _, let m): return (.deliveryFailed, m)
            case .warning("subject", let m): return (.warning, m)
            default: return nil
            }
        }
        let matching = messages.filter { $0.0 == failure.report }.map(\.1)
        guard let message = matching.first else {
            let seen = messages.map { "\($0.0): \($0.1)" }
            return .failed(
                "no \(failure.report) event named the component; saw \(seen.isEmpty ? "none" : seen.joined(separator: " | ")), run \(result.state)"
            )
        }
        var problems: [String] = []
        if let text = failure.messageContains, !matching.contains(where: { $0.contains(text) }) {
            problems.append("the message '\(message)' does not say '\(text)'")
        }
        switch failure.report {
        case .fatal:
            if result.state != .failed { problems.append("the run ended \(result.state), expected failed") }
            if result.error?.component != "subject" {
                problems.append("the run's failure '\(result.failureLine ?? "")' does not name the component")
            }
        case .warning, .deliveryFailed:
            if result.state == .cancelled { problems.append("the run was cancelled") }
        case .refusedAtStart:
            break
        }
        return Self.verdict(problems)
    }

    private func refusedAtStart(_ error: PipelineStartError, _ failure: FailureCase) -> ConformanceResult.Verdict {
        let expected = ConformanceRunner.qualified(kind, "subject")
        guard failure.report == .refusedAtStart else {
            return .failed("the run did not start (\(error)); expected a \(failure.report) event while it runs")
        }
        var problems: [String] = []
        if error.component != expected {
            problems.append("the start error names '\(error.component)', not '\(expected)'")
        }
        if let text = failure.messageContains, !error.message.contains(text) {
            problems.append("the start error '\(error.message)' does not say '\(text)'")
        }
        return Self.verdict(problems)
    }
}
