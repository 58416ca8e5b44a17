import DAQCore

/// Checks how a run ended and the events it raised.
struct EventChecker {
    let outcome: CaseOutcome

    func failures(_ e: EventExpectation, casePlace: Place) -> [Failure] {
        var out: [Failure] = []
        if let result = outcome.result, result.state.rawValue != e.status {
            let actual = result.state.rawValue + (result.failureLine.map { ": \($0)" } ?? "")
            out.append(
                Failure(place: e.statusPlace ?? casePlace, key: "events.status", expected: e.status, actual: actual))
        }
        for count in e.counts {
            let events = outcome.events.compactMap { Self.component(of: $0, kind: count.kind) }
            if let total = count.total {
                let n = events.reduce(0) { $0 + $1.n }
                if !total.accepts(n) {
                    out.append(
                        Failure(
                            place: count.place, key: "events.\(count.kind)", expected: "\(total)",
                            actual: "\(n)\(examples(count.kind))"))
                }
            }
            for (component, spec, place) in count.byComponent {
                let n = events.filter { $0.component == component }.reduce(0) { $0 + $1.n }
                if !spec.accepts(n) {
                    out.append(
                        Failure(
                            place: place, key: "events.\(count.kind).\(component)", expected: "\(spec)",
                            actual: "\(n)\(examples(count.kind, component))"))
                }
            }
        }
        let messages = outcome.events.compactMap(Self.message)
        for (text, place) in e.contains where !messages.contains(where: { $0.contains(text) }) {
            let seen =
                messages.isEmpty ? "no event has a message" : "messages: " + messages.prefix(5).joined(separator: " | ")
            out.append(
                Failure(
                    place: place, key: "events.contains", expected: "an event whose message contains '\(text)'",
                    actual: seen))
        }
        if let (paths, place) = e.steps {
            let seen = outcome.events.compactMap { e -> String? in
                if case .stepChanged(let p, _) = e { return p } else { return nil }
            }
            if seen != paths {
                out.append(
                    Failure(
                        place: place, key: "events.steps", expected: SampleText.list(paths),
                        actual: SampleText.list(seen)))
            }
        }
        return out
    }

    /// The component an event of `kind` is about, and how much it counts (dropped: samples).
    static func component(of event: PipelineEvent, kind: String) -> (component: String, n: Int)? {
        switch (kind, event) {
        case ("warnings", .warning(let c, _)): return (c, 1)
        case ("errors", .failed(let c?, _)): return (c, 1)
        case ("errors", .sinkFailed(let c, _, _)): return (c, 1)
        case ("timeouts", .timeout(let c, _)): return (c, 1)
        case ("notices", .notice(let c, _)): return (c, 1)
        case ("dropped", .dropped(let c, let n)): return (c, n)
        default: return nil
        }
    }

    static func message(_ event: PipelineEvent) -> String? {
        switch event {
        case .warning(let c, let m), .timeout(let c, let m), .notice(let c, let m): return "\(c): \(m)"
        case .failed(let c, let m): return "\(c ?? "pipeline"): \(m)"
        case .sinkFailed(let c, _, let m): return "\(c): \(m)"
        default: return nil
        }
    }

    /// The first messages of that kind, so a count that is off says what happened.
    private func examples(_ kind: String, _ component: String? = nil) -> String {
        let ms = outcome.events.filter { e in
            Self.component(of: e, kind: kind).map { component == nil || $0.component == component } ?? false
        }.compactMap(Self.message)
        return ms.isEmpty ? "" : " (" + ms.prefix(3).joined(separator: " | ") + (ms.count > 3 ? " | …" : "") + ")"
    }
}
