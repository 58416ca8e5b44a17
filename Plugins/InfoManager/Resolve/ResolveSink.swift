import DAQCore
import DequeModule
import Foundation

/// `infomanager.resolve` as a sink: writes one JSON Lines element per id, the first time the id
/// is seen — the sample it came in (`input`), what the service said (`data`) and `state`:
///
/// ```json
/// {"id":"4006381333931","input_type":"barcode","state":"RESOLVED","uptime":1.2,"timestamp":…,
///  "input":{"code":"4006381333931",…},"data":{"language":"en","name":"Pencil",…}}
/// ```
///
/// Elements are written in the order their ids were first seen; an element is *delivered* once
/// written and flushed, and *failed* when it could not be written.
///
/// `on_error` applies to samples whose element could not be written (the file refused the
/// bytes): `stop` fails the run, `skip` drops them (reported), `dead_letter` sends them to
/// `<name>.dead`. It also applies to ids whose lookup failed with nothing cached, except under
/// `stop`, the default, where they are written as UNRESOLVED, so a resolver outage does not end
/// an acquisition; under `skip` and `dead_letter` they count as failed, no element is written
/// and a later sample with the id is looked up again.
public final class ResolveSink: SinkPlugin, DeferredWork {
    public typealias Configuration = ResolveSinkSettings

    public static let typeName = "infomanager.resolve"
    public static let summary =
        "Resolves each distinct id on an Info Manager service and writes one JSON Lines element per id."

    /// An id waiting for its answer, with the sample it first came in.
    private final class Pending {
        let id: String
        let input: Batch
        var outcome: ResolveOutcome?

        init(id: String, input: Batch) {
            self.id = id
            self.input = input
        }
    }

    private let lifecycle: ResolverLifecycle
    private let path: String
    private var file: OutputFile?
    private var seen: Set<String> = []
    private var pending = Deque<Pending>()
    private var written = 0
    private var context: StageContext?

    public init(configuration: ResolveSinkSettings, context: PluginContext) throws {
        lifecycle = ResolverLifecycle(settings: configuration.resolver, context: context)
        path = context.resolve(configuration.path)
    }

    public var acceptsInput: Bool { pending.count < max(1024, 64 * lifecycle.settings.maxInFlight) }
    public var hasPendingWork: Bool { !pending.isEmpty }

    public func start(context: StageContext) throws {
        self.context = context
        file = try OutputFile(path: path)
        try lifecycle.start(context: context)
    }

    public func write(_ batch: Batch, context: StageContext) throws {
        guard let column = batch.columnIndex(lifecycle.settings.idField) else { return }
        let resolver = lifecycle.resolver!
        let now = Date.nowSeconds
        for row in 0..<batch.count where batch.kinds[row] != .marker {
            guard let id = ResolvedFields.id(batch.columns[column][row]), seen.insert(id).inserted else { continue }
            let item = Pending(id: id, input: batch.slice(row..<row + 1))
            pending.append(item)
            if let outcome = resolver.known(id, now: now) {
                item.outcome = outcome
                continue
            }
            resolver.request(id) { [weak self, item] outcome in
                item.outcome = outcome
                self?.writeReady()
            }
        }
        writeReady()
    }

    /// Writes the elements whose answers are in, in first-seen order; what the policy rejects
    /// (failed lookups under `skip` and `dead_letter`, and elements the file refused) goes to it.
    private func writeReady() {
        guard let context, let file else { return }
        let before = (acceptsInput, hasPendingWork)
        let rejectsFailedLookups = context.errorPolicy != .stop
        var elements: [Pending] = []
        var unresolved: [Pending] = []
        var bytes = 0
        do {
            try file.withBuffer { out in
                let start = out.count
                while let first = pending.first, let outcome = first.outcome {
                    pending.removeFirst()
                    if rejectsFailedLookups, outcome.failure != nil {
                        unresolved.append(first)
                        continue
                    }
                    ResolvedElementJSON.append(
                        id: first.id, inputType: lifecycle.settings.inputType, outcome: outcome, input: first.input,
                        to: &out)
                    elements.append(first)
                }
                bytes = out.count - start
            }
            if !elements.isEmpty {
                try file.flush()
                written += elements.count
                context.wrote(bytes: bytes)
                context.delivered(samples: elements.count, bytes: bytes)
                context.recordOutput(path: path, format: "jsonl", samples: written, bytes: file.bytesWritten)
            }
        } catch {
            // What the file refused must not be written later behind the policy's back.
            file.discardBuffered()
            reject(elements, reason: "\(error)", context: context)
        }
        for (reason, items) in FailedLookups.grouped(unresolved, by: { $0.outcome?.failure }) {
            // No element for the id: the next sample that has it asks again.
            for item in items { seen.remove(item.id) }
            reject(items, reason: reason, context: context)
        }
        if (acceptsInput, hasPendingWork) != before { context.wake() }
    }

    /// Counts `items` failed and hands the samples they came in to the policy.
    private func reject(_ items: [Pending], reason: String, context: StageContext) {
        guard !items.isEmpty else { return }
        var samples = Batch(stream: context.name)
        for item in items { samples.append(contentsOf: item.input) }
        context.failed(samples: items.count, message: reason)
        context.reject(samples, reason: reason)
    }

    public func flush(context: StageContext) throws {
        try file?.flush()
    }

    public func finish(context: StageContext) throws {
        lifecycle.finish(context: context)
        try file?.close()
        file = nil
    }
}

/// The sink's settings: the file, then the resolver's.
public struct ResolveSinkSettings: PluginConfiguration {
    @Setting(required: "The JSON Lines file the elements are written to.") var path: String
    var resolver = ResolverSettings()

    public init() {}

    public func validate() throws {
        if path.isEmpty { throw $path.issue("missing: name the JSON Lines file the elements go to") }
        try resolver.validate()
    }
}
