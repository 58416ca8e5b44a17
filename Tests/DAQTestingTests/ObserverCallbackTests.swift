import DAQCore
import DAQStandard
import DAQTesting
import Dispatch
import Synchronization
import Testing

/// An observer written the delegate way: only the methods it needs, no `handle(_:)`.
final class CallbackLog: PipelineObserver {
    let calls = Mutex<[String]>([])
    private func note(_ call: String) { calls.withLock { $0.append(call) } }

    func stateChanged(_ component: String?, from: LifecycleState, to: LifecycleState) {
        note("state \(component ?? "-") \(from.rawValue)>\(to.rawValue)")
    }
    func failed(_ component: String?, error: DAQError) { note("failed \(component ?? "-") \(error.code)") }
    func dropped(_ component: String, samples: Int) { note("dropped \(component) \(samples)") }
    func backpressure(_ component: String) { note("backpressure \(component)") }
    func notice(_ component: String, message: String) { note("notice \(component) \(message)") }
    func warning(_ component: String, message: String) { note("warning \(component) \(message)") }
    func messages(sink: String, status: MessageStatus, ids: [String]) { note("messages \(sink) \(ids)") }

    func all(_ prefix: String) -> [String] { calls.withLock { $0.filter { $0.hasPrefix(prefix) } } }
}

/// An observer that still implements the text-only failure method.
final class TextFailureLog: PipelineObserver {
    let failures = Mutex<[String]>([])
    func failed(_ component: String?, message: String) { failures.withLock { $0.append(message) } }
}

/// Every kind of event reaches an observer's own method.
@Suite("Observer callbacks", .timeLimit(.minutes(20)))
struct ObserverCallbackTests {
    static let every: [PipelineEvent] = [
        .state(component: "a", from: .running, to: .stopping),
        .failed(component: "a", error: DAQError(.badInput, "bad")),
        .dropped(component: "a", samples: 3),
        .backpressure(component: "a"),
        .notice(component: "a", message: "n"),
        .warning(component: "a", message: "w"),
        .messages(sink: "a", status: .sent, ids: ["m1"]),
    ]

    @Test func eachKindCallsItsMethod() {
        let log = CallbackLog()
        for event in Self.every { log.handle(event) }
        #expect(
            log.calls.withLock { $0 } == [
                "state a running>stopping", "failed a bad_input", "dropped a 3", "backpressure a", "notice a n",
                "warning a w", "messages a [\"m1\"]",
            ])
    }

    @Test func anObserverOfTheTextFailureStillHearsOfIt() {
        let log = TextFailureLog()
        log.handle(.failed(component: "a", error: DAQError(.badInput, "row 3: bad")))
        #expect(log.failures.withLock { $0 } == ["row 3: bad"])
    }

    /// Runs generator → chatty → a gated sink with `policy`, opening the gate once `openWhen` came.
    func run(policy: String, openWhen: @escaping @Sendable (PipelineEvent) -> Bool) throws -> CallbackLog {
        let name = "callbacks-\(policy)"
        let gate = DispatchSemaphore(value: 0)
        GatedSink.gates.withLock { $0[name] = gate }
        let registry = try PluginRegistry(
            StandardPlugins.all + [.sink(GatedSink.self), .transform(ChattyTransform.self)])
        let yaml = """
            name: \(name)
            clock: virtual
            sources:
              gen: {type: generator, signal: counter, rate: 1000, count: 20000}
            transforms:
              talk: {type: chatty, inputs: [gen], buffer: {size: 100, when_full: block}}
            sinks:
              slow:
                type: gated
                inputs: [talk]
                buffer: {size: 100, when_full: \(policy)}
            """
        let spec = try PipelineLoader(registry: registry, environment: [:]).load(text: yaml, file: "t.yaml")
        let log = CallbackLog()
        let waiter = EventWaiter(openWhen)
        let run = try PipelineRun(
            spec: spec, options: RunOptions(batchSize: 50, flushInterval: 0), observers: [log, waiter])
        try run.start()
        #expect(waiter.wait(), "the awaited event never came")
        gate.signal()
        #expect(run.wait().state == .finished)
        return log
    }

    @Test func aRunCallsBackpressureNoticeAndWarning() throws {
        let log = try run(policy: "block") { if case .backpressure = $0 { true } else { false } }
        #expect(!log.all("backpressure gen").isEmpty, "\(log.calls.withLock { $0 })")
        #expect(log.all("notice") == ["notice talk found 3 axes"])
        #expect(log.all("warning") == ["warning talk skipped a row"])
        #expect(log.all("state - ").last == "state - stopping>finished")
    }

    @Test func aRunCallsDropped() throws {
        let log = try run(policy: "drop_newest") {
            if case .state(component: "talk", from: _, to: .finished) = $0 { true } else { false }
        }
        let dropped = log.all("dropped slow ").compactMap { Int($0.split(separator: " ").last!) }
        #expect(!dropped.isEmpty && dropped.allSatisfy { $0 > 0 }, "\(log.calls.withLock { $0 })")
    }
}
