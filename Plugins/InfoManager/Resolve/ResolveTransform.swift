import DAQCore
import DequeModule
import Foundation

/// `infomanager.resolve` as a transform: adds the resolved fields and `resolve_state` to every
/// sample that has the id field, keeping the samples' order.
///
/// Batches whose ids are all known (cached, or resolving disabled) pass at once; a batch with
/// an id the service must be asked about waits, and so does every batch behind it, until its
/// answers are in or failed. What waits is bounded (``maxHeldSamples``): past it the stage
/// takes no input and the edge buffer in front of it fills, so a slow service slows the
/// sources by backpressure, and a dead one costs one timeout (see ``Resolver``).
///
/// A lookup that failed (the service unreachable, timing out or answering an error after the
/// retries, or answering nonsense) with nothing cached passes as UNRESOLVED under `on_error:
/// stop`, the default: a resolver outage must not end an acquisition. Under `skip` such samples
/// are dropped and reported, under `dead_letter` they go as they came to `<name>.dead`.
public final class ResolveTransform: TransformPlugin, DeferredWork {
    /// The resolver's settings, and the prefix of the fields it adds.
    public struct Configuration: PluginConfiguration {
        var resolver = ResolverSettings()
        @Setting("Put before every added field name (`info.` gives info.name, …).") var prefix = ""

        public init() {}

        public func validate() throws { try resolver.validate() }
    }

    public static let typeName = "infomanager.resolve"
    public static let summary =
        "Resolves ids (beacon, barcode, NFC) on an Info Manager service and adds name, description, url, … and resolve_state."
    public static let output = StreamOutput(
        .input, ResolvedFields.output,
        note: "the input's fields, then the resolved ones, each named with `prefix` before it")

    /// A batch waiting for answers.
    private final class Pending {
        var batch: Batch
        var outcomes: [ResolveOutcome?]
        var missing = 0

        init(_ batch: Batch) {
            self.batch = batch
            outcomes = Array(repeating: nil, count: batch.count)
        }
    }

    private let lifecycle: ResolverLifecycle
    private let fields: ResolvedFields
    private var pending = Deque<Pending>()
    private var heldSamples = 0
    private let maxHeldSamples: Int
    private var context: StageContext?

    public init(configuration: Configuration, context: PluginContext) throws {
        lifecycle = ResolverLifecycle(settings: configuration.resolver, context: context)
        fields = ResolvedFields(prefix: configuration.prefix)
        maxHeldSamples = max(4096, 256 * configuration.resolver.maxInFlight)
    }

    /// The input's fields, then the resolved ones under their prefixed names: every batch gets
    /// them all, null where a sample has no id or the answer no value.
    public func describe(input: StreamDescriptor, context: PluginContext) throws -> StreamDescriptor {
        input.setting(fields.descriptors)
    }

    public var acceptsInput: Bool { heldSamples < maxHeldSamples }
    public var hasPendingWork: Bool { !pending.isEmpty }

    public func start(context: StageContext) throws {
        self.context = context
        try lifecycle.start(context: context)
    }

    public func process(_ batch: inout Batch, context: StageContext) throws {
        let item = Pending(batch)
        batch = Batch()
        if let column = item.batch.columnIndex(lifecycle.settings.idField) {
            let resolver = lifecycle.resolver!
            let ids = item.batch.columns[column]
            let now = Date.nowSeconds
            for row in 0..<item.batch.count {
                guard let id = ResolvedFields.id(ids[row]) else { continue }
                if let outcome = resolver.known(id, now: now) {
                    item.outcomes[row] = outcome
                    continue
                }
                item.missing += 1
                resolver.request(id) { [weak self, item] outcome in
                    item.outcomes[row] = outcome
                    item.missing -= 1
                    if item.missing == 0 { self?.emitReady() }
                }
            }
        }
        pending.append(item)
        heldSamples += item.batch.count
        // Even a batch with every answer known goes out through `emit`, behind those still
        // waiting: output taken back from `process` could overtake them.
        emitReady()
    }

    private func emitReady() {
        guard let context else { return }
        let before = (acceptsInput, hasPendingWork)
        while let first = pending.first, first.missing == 0 {
            pending.removeFirst()
            heldSamples -= first.batch.count
            context.emit(passOn(first, context: context))
        }
        if (acceptsInput, hasPendingWork) != before { context.wake() }
    }

    /// The batch with the resolved fields, less the samples whose lookup failed when the
    /// policy rejects them; those are handed to it as they came, without the added fields.
    private func passOn(_ item: Pending, context: StageContext) -> Batch {
        let filled = fields.fill(item.batch, outcomes: item.outcomes)
        guard context.errorPolicy != .stop else { return filled }
        let failed = FailedLookups.grouped(item.outcomes.indices) { item.outcomes[$0]?.failure }
        guard !failed.isEmpty else { return filled }
        var keep = [Bool](repeating: true, count: filled.count)
        var kept = filled.count
        for (reason, rows) in failed {
            for row in rows { keep[row] = false }
            kept -= rows.count
            context.reject(FailedLookups.rows(rows, of: item.batch), reason: reason)
        }
        var out = filled
        out.retain(keep, kept: kept)
        return out
    }

    public func finish(context: StageContext) throws -> Batch {
        lifecycle.finish(context: context)
        return Batch()
    }
}
