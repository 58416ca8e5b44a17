import DAQCore

/// `lsl`: a live Lab Streaming Layer stream, found by name, type, source id or an XPath query,
/// as samples: a numeric stream's channels as fields named by their labels, a marker stream's
/// texts as `event` samples with the text in `marker`.
///
/// Nothing here waits on liblsl. The stream is resolved by a continuous resolver whose results
/// are polled; the inlet is opened, its full info and clock offset fetched, and its samples
/// pulled, all with timeout 0.0, on the run's timers (`after` while starting, then the run
/// clock's ticks). The run's start waits, off the pool, until the stream is found and its info
/// known, at most `timeout`: so the descriptor, from the stream's own info, is declared before
/// the first sample.
///
/// Each sample's `timestamp` is its LSL time plus the measured clock offset of its outlet's
/// machine, mapped to seconds since 1970 by `wall − lsl_local_clock()` measured once at start
/// (the descriptor's `time` metadata and the manifest say which). A stream that disappears is
/// warned about; when its outlet returns (same source id) liblsl reconnects and the gap is
/// reported and kept in the manifest.
public final class LSLSource: SourcePlugin {
    public typealias Configuration = LSLSourceSettings

    public static let typeName = "lsl"
    public static let summary =
        "A live Lab Streaming Layer stream (by name, stream_type, source_id or query): channels as fields, markers as events."
    public static let output = StreamOutput(
        .free,
        [OutputField("marker", .string, "a marker stream's text (one string channel); samples are events")],
        note:
            "a field per channel, named by desc/channels/channel/label (else ch1…chN), typed by the channel format, with its unit; rate, origin (host, source_id) and metadata from the stream's info, declared once it is found"
    )

    private let settings: LSLSourceSettings
    private var lsl: LSLLibrary?
    private var mapping: LSLClockMapping?
    private var machine = LSLSourceMachine()
    /// The run-clock time given to the last sample: times only go forward.
    private var floor = 0.0
    private var pulled = 0
    private var startCompletion: StartCompletion?

    public init(configuration: LSLSourceSettings, context: PluginContext) throws {
        settings = configuration
    }

    /// Known before the stream is found: nothing but what the configuration says. The fields
    /// come from the stream's info, declared when the run's start has found it.
    public func describe(context: PluginContext) throws -> StreamDescriptor {
        var d = StreamDescriptor(timeBase: .recorded, origin: StreamOrigin(plugin: Self.typeName))
        d.origin.sourceID = settings.sourceID
        d.metadata["lsl_query"] = settings.predicate
        return d
    }

    public func start(context: StageContext) throws {
        let lsl = try LSLLibrary.shared()
        self.lsl = lsl
        let mapping = LSLClockMapping(api: lsl.api)
        self.mapping = mapping
        let forget = settings.forget.value
        guard let wanted = lsl.api.createResolverByPredicate(settings.predicate, forget),
            let everything = lsl.api.createResolver(forget)
        else {
            throw LSLSourceError("liblsl could not make a resolver for \(settings.predicate)")
        }
        machine.begin(
            wanted: wanted, everything: everything,
            deadline: context.clock.elapsedWallSeconds() + settings.timeout.value)
        context.recordResult([
            "lsl_library": .string(lsl.path), "lsl_version": .int(Int64(lsl.version)),
            "wall_minus_lsl_clock": .double(mapping.wallMinusLSL), "query": .string(settings.predicate),
        ])
        startCompletion = context.completeStartLater(waitingAtMost: .seconds(settings.timeout.value + 5))
        step(context: context)
    }

    /// One poll while the run's start waits for the stream.
    private func step(context: StageContext) {
        guard startCompletion != nil, let lsl else { return }
        switch advance(context: context, api: lsl.api) {
        case .waiting:
            let source = QueueConfined(self)
            context.after(.seconds(settings.poll.value)) { source.value?.step(context: context) }
        case .failed(let message):
            startCompletion?.fail(LSLSourceError(message))
            startCompletion = nil
        case .streaming:
            startCompletion?.succeed()
            startCompletion = nil
        }
    }

    private enum Progress {
        case waiting, streaming
        case failed(String)
    }

    /// Moves the machine on by what liblsl has now, doing what it asks.
    private func advance(context: StageContext, api: LSLFunctions) -> Progress {
        switch machine.poll(api: api, now: context.clock.elapsedWallSeconds(), bufferSeconds: bufferSeconds) {
        case .none:
            return machine.isStreaming ? .streaming : .waiting
        case .fail(let message):
            return .failed("\(settings.wanted) did not appear within \(settings.timeout.value) s: \(message)")
        case .declare(let info, let ambiguous):
            if let ambiguous { context.warn(ambiguous) }
            context.declare(info.descriptor(clock: mapping!))
            context.notice("reading \(info.summary)")
            return .streaming
        case .gone(let info):
            context.warn(
                "the stream \(info.summary) is gone (not seen for \(settings.forget.value) s); waiting for it to return"
            )
            return .streaming
        case .lost(let inlet):
            context.warn(
                "the stream \(inlet.resolved.summary) was lost (it has no source_id to reconnect by); resolving it again"
            )
            inlet.close(context: context)
            return .waiting
        }
    }

    private var bufferSeconds: Int32 { Int32(min(settings.buffer.value.rounded(.up), Double(Int32.max))) }

    public func read(into batch: inout Batch, limit: Int, context: StageContext) throws -> SourceStatus {
        guard let lsl, let mapping else { return .finished }
        _ = advance(context: context, api: lsl.api)
        let now = context.clock.now()
        if let inlet = machine.inlet, machine.isStreaming {
            switch inlet.pull(
                limit: limit, into: &batch, mapping: mapping, startDate: context.startDate, floor: &floor, now: now)
            {
            case nil:
                context.warn("the stream \(inlet.resolved.summary) was lost; resolving it again")
                machine.inletLost()
                inlet.close(context: context)
            case let n?:
                if n > 0 {
                    pulled += n
                    if let gap = machine.noteSamples(
                        first: batch.timestamps[0], last: batch.timestamps[n - 1],
                        now: context.clock.elapsedWallSeconds())
                    {
                        reportGap(gap, context: context)
                    }
                }
            }
        }
        if batch.isEmpty { context.requestTick(atUptime: now + settings.poll.value) }
        return batch.isEmpty ? .idle : .more
    }

    private func reportGap(_ gap: LSLSourceMachine.Gap, context: StageContext) {
        context.notice(
            "the stream is back: no samples from \(gap.from) to \(gap.to) (seconds since 1970), a gap of \(((gap.to - gap.from) * 1000).rounded() / 1000) s"
        )
        recordState(context: context)
    }

    private func recordState(context: StageContext) {
        guard let lsl, let mapping else { return }
        var fields: Fields = [
            "lsl_library": .string(lsl.path), "lsl_version": .int(Int64(lsl.version)),
            "wall_minus_lsl_clock": .double(mapping.wallMinusLSL), "query": .string(settings.predicate),
            "samples": .int(Int64(pulled)),
            "gaps": .array(
                machine.gaps.map { .object(["from": .double($0.from), "to": .double($0.to)]) }),
        ]
        if let inlet = machine.inlet {
            fields["clock_resets"] = .int(Int64(inlet.clockResets))
            fields["time_corrections"] = .array(
                inlet.corrections.map { .object(["lsl_time": .double($0.at), "offset": .double($0.offset)]) })
            if let info = inlet.info { fields["stream"] = .string(info.summary) }
        }
        context.recordResult(fields)
    }

    public func stop(context: StageContext) {
        recordState(context: context)
        guard let lsl else { return }
        let (resolvers, inlet) = machine.end()
        // The stage ends once liblsl's threads are gone, so no callback of theirs outlives the run.
        let end = context.completeEndLater(waitingAtMost: .seconds(5))
        let handles =
            resolvers.map { LSLHandle(raw: $0, destroy: lsl.api.destroyResolver) }
            + (inlet?.giveUp().map { [$0] } ?? [])
        context.offload({ for h in handles { h.destroy(h.raw) } }, then: { _ in end.succeed() })
    }
}

/// Why the `lsl` source could not go on.
struct LSLSourceError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
