import DAQCore

/// `lsl`: publishes each input stream as a Lab Streaming Layer outlet made from its descriptor
/// (channels labelled and with units, format, nominal rate, a stable source id), with its step
/// markers and events on a companion string stream `<name>.markers`.
///
/// Samples keep their own spacing on LSL's clock (see ``LSLOutlet``), so a replayed recording
/// reaches a recorder as it was recorded. Pushing never waits: liblsl queues what a consumer
/// has not taken yet (`max_buffered`). Consumers coming and going are noticed once a second,
/// reported as notices and kept in the manifest.
public final class LSLSink: SinkPlugin {
    public typealias Configuration = LSLSinkSettings

    public static let typeName = "lsl"
    public static let summary =
        "Publishes each input as a Lab Streaming Layer outlet from its descriptor, markers and events on <name>.markers."

    /// Where the sink is in its life; each case carries what exists then.
    private enum State {
        case idle
        /// Outlets open; `waiting` while the start waits for their consumers.
        case open([String: LSLOutlet], waiting: StartCompletion?, deadline: Double)
        case closed
    }

    private let settings: LSLSinkSettings
    private let plugin: PluginContext
    private var lsl: LSLLibrary?
    private var state = State.idle
    private var pushed = 0
    private var consumerChanges = 0

    public init(configuration: LSLSinkSettings, context: PluginContext) throws {
        settings = configuration
        plugin = context
    }

    public func start(context: StageContext) throws {
        let lsl = try LSLLibrary.shared()
        self.lsl = lsl
        let inputs = context.inputDescriptors
        var outlets: [String: LSLOutlet] = [:]
        for stream in inputs.keys.sorted() where !stream.hasSuffix(".dead") {
            let descriptor = inputs[stream]!
            let layout = try LSLOutletLayout(
                stream: stream, descriptor: descriptor, settings: settings, pipeline: plugin.pipelineName,
                component: plugin.componentName, several: inputs.count > 1)
            let left = LSLOutletLayout.leftOut(descriptor, layout)
            if !left.isEmpty {
                context.notice("\(layout.name) leaves out fields that are not numbers: \(left.joined(separator: ", "))")
            }
            outlets[stream] = try LSLOutlet(
                layout: layout, api: lsl.api, maxBuffered: Int32(min(settings.maxBuffered.value, 1e9)),
                pipeline: plugin.pipelineName, component: plugin.componentName, stream: stream)
        }
        let wait = settings.waitForConsumers.value
        let waiting = wait > 0 ? context.completeStartLater(waitingAtMost: .seconds(wait + 2)) : nil
        state = .open(outlets, waiting: waiting, deadline: context.clock.elapsedWallSeconds() + wait)
        recordOutlets(outlets, context: context)
        watchConsumers(context: context)
    }

    /// Looks at the consumers now and again: every 10 ms while the start waits for them, then
    /// once a second.
    private func watchConsumers(context: StageContext) {
        guard case .open(let outlets, let waiting, let deadline) = state else { return }
        var changed = false
        for stream in outlets.keys.sorted() {
            for (outlet, present) in outlets[stream]!.lookAtConsumers() {
                consumerChanges += 1
                changed = true
                context.notice(present ? "\(outlet): a consumer connected" : "\(outlet): no consumer any more")
            }
        }
        if changed { recordOutlets(outlets, context: context) }
        var interval = 1.0
        if let waiting {
            if outlets.values.allSatisfy(\.allConsumed) {
                waiting.succeed()
                state = .open(outlets, waiting: nil, deadline: deadline)
            } else if context.clock.elapsedWallSeconds() >= deadline {
                context.warn(
                    "no consumer for every outlet after \(settings.waitForConsumers.value) s (wait_for_consumers); pushing anyway"
                )
                waiting.succeed()
                state = .open(outlets, waiting: nil, deadline: deadline)
            } else {
                interval = 0.01
            }
        }
        let sink = QueueConfined(self)
        context.after(.seconds(interval)) { sink.value?.watchConsumers(context: context) }
    }

    public func write(_ batch: Batch, context: StageContext) throws {
        guard case .open(let outlets, _, _) = state else { return }
        // The run's start and stop markers come on the sink's own stream: every outlet gets them.
        let targets = outlets[batch.stream].map { [$0] } ?? outlets.keys.sorted().map { outlets[$0]! }
        var n = 0
        for outlet in targets { n += try outlet.push(batch) }
        pushed += n
        // LSL acknowledges nothing: a batch handed to the outlets is as delivered as it gets.
        context.delivered(samples: batch.count)
    }

    public func finish(context: StageContext) throws {
        guard case .open(let outlets, let waiting, _) = state else { return }
        waiting?.succeed()
        state = .closed
        recordOutlets(outlets, context: context)
        let handles = outlets.values.flatMap { $0.giveUp() }
        // Inlets take what was pushed last only while the outlet lives: keep it `linger` longer.
        let end = context.completeEndLater(waitingAtMost: .seconds(settings.linger.value + 5))
        context.after(.seconds(settings.linger.value)) {
            context.offload({ for h in handles { h.destroy(h.raw) } }, then: { _ in end.succeed() })
        }
    }

    private func recordOutlets(_ outlets: [String: LSLOutlet], context: StageContext) {
        var list: [Value] = []
        for stream in outlets.keys.sorted() {
            let o = outlets[stream]!
            list.append(
                .object([
                    "stream": .string(stream), "name": .string(o.layout.name), "source_id": .string(o.layout.sourceID),
                    "channels": .int(Int64(o.layout.channels.count)), "channel_format": .string(o.layout.format.name),
                    "consumers": .bool(o.consumers.data), "marker_consumers": .bool(o.consumers.markers),
                ]))
        }
        context.recordResult([
            "outlets": .array(list), "pushed": .int(Int64(pushed)), "consumer_changes": .int(Int64(consumerChanges)),
            "lsl_library": .string(lsl?.path ?? ""),
        ])
    }
}
