import DAQCore
import Testing

/// What a program outside DAQKit writes, in the documented pattern: every kind it knows, then
/// `@unknown default`, so a kind added later is a warning there and not a broken build.
func label(_ event: PipelineEvent) -> String {
    switch event {
    case .state(let c, _, let to): return "\(c ?? "pipeline") \(to.rawValue)"
    case .failed(let c, let error):
        return "\(c ?? "pipeline") failed: \(error.code) at \(error.location?.description ?? "-")"
    case .timeout(let c, _): return "\(c) timed out"
    case .stepChanged(let path, _): return "step \(path)"
    case .sent(let s, let n, _), .delivered(let s, let n, _): return "\(s) \(n)"
    case .progress(let s, let b, let t): return "\(s) \(b)/\(t)"
    case .sinkFailed(let s, let n, _): return "\(s) lost \(n)"
    case .messages(let s, let status, let ids): return "\(s) \(status.rawValue) \(ids.count)"
    case .dropped(let c, let n): return "\(c) dropped \(n)"
    case .backpressure(let c): return "\(c) waits"
    case .notice(let c, let m), .warning(let c, let m): return "\(c): \(m)"
    @unknown default: return "something new"
    }
}

/// Codes are matched with a `default`, since plugins and later releases add their own.
func advice(_ error: DAQError) -> String {
    switch error.code {
    case .badInput: return "fix the input"
    case .invalidConfiguration: return "fix the pipeline file"
    default: return "see the message"
    }
}

@Suite("Matching on events", .timeLimit(.minutes(20)))
struct EventSwitchTests {
    @Test func theDocumentedSwitchSeesEachKind() {
        let located = DAQError(.badInput, "a.csv:3: bad", location: .init(file: "a.csv", line: 3))
        #expect(label(.failed(component: "in", error: located)) == "in failed: bad_input at a.csv:3")
        #expect(label(.state(component: nil, from: .running, to: .stopping)) == "pipeline stopping")
        #expect(label(.dropped(component: "out", samples: 4)) == "out dropped 4")
        #expect(label(.backpressure(component: "gen")) == "gen waits")
        #expect(label(.messages(sink: "pub", status: .delivered, ids: ["a", "b"])) == "pub delivered 2")
        #expect(advice(located) == "fix the input")
        #expect(advice(DAQError(DAQError.Code(rawValue: "lab.overrange"), "over range")) == "see the message")
    }
}
