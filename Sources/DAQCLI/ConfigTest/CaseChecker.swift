import DAQCore
import DAQStandard

/// Checks a case's expectations against what its run produced.
struct CaseChecker {
    let outcome: CaseOutcome

    /// Every assertion that did not hold, in the order the case lists them.
    func failures(of c: TestCase) -> [Failure] {
        var out: [Failure] = []
        if let problem = outcome.startFailure {
            return [Failure(place: c.place, key: "run", expected: "the pipeline starts", actual: problem)]
        }
        if let seconds = outcome.timedOut {
            out.append(
                Failure(
                    place: c.timeoutPlace ?? c.place, key: "timeout",
                    expected: "the run ends by itself within \(SampleText.seconds(seconds))",
                    actual:
                        "stopped after \(SampleText.seconds(seconds)); the checks below see what came out until then"))
        }
        out += outcome.publishFailures
        for e in c.expectations {
            if let reason = outcome.removed[e.component] {
                out.append(
                    Failure(
                        place: e.place, key: "expect.\(e.component)", expected: "'\(e.component)' runs",
                        actual: "it does not: \(reason)"))
                continue
            }
            let batches = outcome.batches[e.component] ?? []
            let selected = select(batches, e.only)
            for check in e.checks {
                if let f = evaluate(check, selected: selected, all: batches, component: e.component) { out.append(f) }
            }
        }
        out += EventChecker(outcome: outcome).failures(c.events, casePlace: c.place)
        return out
    }

    /// The samples the assertions look at: those `only` keeps, or all but step markers.
    private func select(_ batches: [Batch], _ only: Expression?) -> [Sample] {
        var out: [Sample] = []
        for b in batches {
            let keep = only.map { $0.matches(b).keep } ?? b.kinds.map { $0 != .marker }
            for i in 0..<b.count where keep[i] { out.append(b[i]) }
        }
        return out
    }

    private func evaluate(_ check: Check, selected: [Sample], all: [Batch], component: String) -> Failure? {
        func fail(_ expected: String, _ actual: String) -> Failure {
            Failure(place: check.place, key: check.key, expected: expected, actual: actual)
        }
        switch check.kind {
        case .count(let spec):
            return spec.accepts(selected.count) ? nil : fail("\(spec) samples", "\(selected.count)")
        case .every(let expression):
            guard let found = firstIndex(selected, where: expression, holds: false) else { return nil }
            return fail(
                "every sample satisfies \(expression.text)",
                "sample \(found.0 + 1) of \(selected.count) does not: \(SampleText.sample(found.1))")
        case .none(let expression):
            guard let found = firstIndex(selected, where: expression, holds: true) else { return nil }
            return fail(
                "no sample satisfies \(expression.text)",
                "sample \(found.0 + 1) of \(selected.count) does: \(SampleText.sample(found.1))")
        case .samples(let expected, let tolerance):
            return SampleComparison(tolerance: tolerance).compare(
                expected, selected, key: check.key, place: check.place)
        case .fields(let names):
            for (i, s) in selected.enumerated() {
                let missing = names.filter { s.fields[$0] == nil }
                if !missing.isEmpty {
                    return fail(
                        "every sample has \(SampleText.list(names))",
                        "sample \(i + 1) lacks \(SampleText.list(missing)): \(SampleText.sample(s))")
                }
            }
            return nil
        case .steps(let paths):
            var seen: [String] = []
            for s in selected where seen.last != s.stepPath { seen.append(s.stepPath) }
            return seen == paths ? nil : fail(SampleText.list(paths), SampleText.list(seen))
        case .markers(let paths):
            let markers = all.flatMap { b in (0..<b.count).filter { b.kinds[$0] == .marker }.map { b.stepPaths[$0] } }
            return markers == paths ? nil : fail(SampleText.list(paths), SampleText.list(markers))
        case .delivery(let counter, let spec):
            guard let stats = outcome.result?.stages.first(where: { $0.name == component }) else {
                return fail("\(spec) samples \(counter)", "the run has no counters of '\(component)'")
            }
            let n = counter == "sent" ? stats.sent : counter == "delivered" ? stats.delivered : stats.failed
            return spec.accepts(n) ? nil : fail("\(spec) samples \(counter)", "\(n)")
        case .file(let expectation):
            return FileChecker(files: outcome.files[component] ?? [], sink: component).check(
                expectation, key: check.key, place: check.place)
        }
    }

    /// The first sample for which `expression` is (or is not) true.
    private func firstIndex(_ samples: [Sample], where expression: Expression, holds: Bool) -> (Int, Sample)? {
        for (i, s) in samples.enumerated() {
            var b = Batch(stream: s.stream)
            b.append(s)
            if (expression.matches(b).kept == 1) == holds { return (i, s) }
        }
        return nil
    }
}
