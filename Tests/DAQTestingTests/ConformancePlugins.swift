import DAQCore
import Foundation
import Synchronization

/// A gate a test opens: what test plugins wait on instead of real I/O.
///
/// # Thread safety
/// The state sits behind an `NSCondition`.
final class TestGate: @unchecked Sendable {
    // @unchecked: `isOpen` and `waiters` are touched only with `condition` locked.
    private let condition = NSCondition()
    private var isOpen = false
    private var waiters: [@Sendable () -> Void] = []

    static let named = Mutex<[String: TestGate]>([:])
    static func named(_ name: String) -> TestGate {
        named.withLock { gates in
            if let g = gates[name] { return g }
            let g = TestGate()
            gates[name] = g
            return g
        }
    }

    /// Blocks the calling thread until the gate opens: what a plugin must never do on its queue.
    func block() {
        condition.lock()
        while !isOpen { condition.wait() }
        condition.unlock()
    }

    /// Calls `waiter` once the gate is open (at once if it is).
    func whenOpen(_ waiter: @escaping @Sendable () -> Void) {
        condition.lock()
        if isOpen {
            condition.unlock()
            waiter()
            return
        }
        waiters.append(waiter)
        condition.unlock()
    }

    func open() {
        condition.lock()
        isOpen = true
        let all = waiters
        waiters = []
        condition.broadcast()
        condition.unlock()
        for w in all { w() }
    }
}

/// A transform that, with `gate` set, waits for that gate before passing its first batch on:
/// by blocking its queue (`blocking: true`), or the asynchronous way, as ``DeferredWork``.
final class GatedTransform: TransformPlugin, DeferredWork, @unchecked Sendable {
    // @unchecked: `held` and `passed` are touched only on the stage's queue (`process`, and
    // `perform` after the gate opens).
    struct Configuration: PluginConfiguration {
        @Setting("gate name") var gate: String?
        @Setting("block the queue") var blocking = false
    }
    static let typeName = "gated"
    static let summary = "test transform that waits on a gate"

    private let gate: TestGate?
    private let blocking: Bool
    private var held: Batch?
    private var passed = false

    init(configuration: Configuration, context: PluginContext) throws {
        gate = configuration.gate.map(TestGate.named)
        blocking = configuration.blocking
    }

    var acceptsInput: Bool { held == nil }
    var hasPendingWork: Bool { held != nil }

    func process(_ batch: inout Batch, context: StageContext) throws {
        guard let gate, !passed, !batch.isEmpty else { return }
        passed = true
        if blocking {
            gate.block()
            return
        }
        held = batch
        batch = Batch()
        gate.whenOpen {
            context.perform {
                if let held = self.held { context.emit(held) }
                self.held = nil
                context.wake()
            }
        }
    }
}

/// A transform with one flaw chosen by `flaw`, each of which one conformance check must catch.
final class FlawedTransform: TransformPlugin {
    enum Flaw: String, ConfigEnum, Sendable {
        /// Keeps its last batch and never flushes it.
        case keepsTheLastBatch = "keeps_the_last_batch"
        /// Swallows its error instead of throwing it.
        case swallowsErrors = "swallows_errors"
        /// Throws on a batch larger than 100 000 samples.
        case refusesHugeBatches = "refuses_huge_batches"
        /// Makes a sample out of an empty batch.
        case inventsSamples = "invents_samples"
        /// Throws when `fail` is set, as a healthy plugin does: the control case.
        case none
    }
    struct Configuration: PluginConfiguration {
        @Setting(required: "which flaw") var flaw: Flaw
        @Setting("fail") var fail = false
    }
    static let typeName = "flawed"
    static let summary = "test transform with one flaw"
    struct Failure: Error, CustomStringConvertible { var description: String { "bad sample" } }

    let flaw: Flaw
    let fail: Bool
    private var kept: Batch?

    init(configuration: Configuration, context: PluginContext) throws {
        flaw = configuration.flaw
        fail = configuration.fail
    }

    func process(_ batch: inout Batch, context: StageContext) throws {
        if fail && flaw != .swallowsErrors { throw Failure() }
        switch flaw {
        case .keepsTheLastBatch:
            let previous = kept ?? Batch()
            kept = batch
            batch = previous
        case .refusesHugeBatches where batch.count > 100_000: throw Failure()
        case .inventsSamples where batch.isEmpty: batch.append(Sample(uptime: 0, fields: ["made": "up"]))
        default: break
        }
    }
}
