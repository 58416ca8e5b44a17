/// Every component's output descriptor and what each reads, found before anything runs: the
/// same answer for `daq describe` and for a run's first batch.
///
/// Sources declare theirs (``Source/describe(context:)``); every other component's input is
/// the merge of the streams it reads, in the order of its `inputs`, and a transform derives
/// its output from that (``Transform/describe(input:context:)``). A dead-letter stream
/// (`<name>.dead`) is what its producer handled plus `raw`, `error` and `component`.
public struct StreamGraph: Sendable {
    /// Each source's and transform's output, by component name.
    public private(set) var outputs: [String: StreamDescriptor] = [:]
    /// What each transform and sink reads, by component name, then by stream as its batches
    /// name it (`accel`, `accel.dead`).
    public private(set) var inputs: [String: [String: StreamDescriptor]] = [:]

    /// The merge of what component `name` reads, in the order of its inputs.
    public func input(of name: String, order: [String]) -> StreamDescriptor? {
        guard let streams = inputs[name] else { return nil }
        return StreamDescriptor.merging(order.compactMap { streams[$0] })
    }

    /// Describes every component of `spec`, building its plugins (which opens nothing) and
    /// reading only the headers of the files sources replay.
    /// - Parameter baseDirectory: what relative paths in the configuration are resolved against.
    /// - Throws: ``PipelineStartError`` naming the component that cannot say what it emits.
    public static func describe(_ spec: PipelineSpec, baseDirectory: String = "") throws -> StreamGraph {
        var built: [String: BuiltStage] = [:]
        var contexts: [String: PluginContext] = [:]
        for c in spec.components {
            let context = PluginContext(
                componentName: c.name, pipelineName: spec.name, baseDirectory: baseDirectory, clock: spec.clock)
            contexts[c.name] = context
            do {
                built[c.name] = try c.plugin.makeStage(c.configuration, context: context)
            } catch {
                throw PipelineStartError(
                    component: "\(c.kind.section).\(c.name)", message: "\(error)", underlying: error)
            }
        }
        return try describe(spec.components, built: built, contexts: contexts)
    }

    /// Describes components whose plugins are built already (a run's).
    static func describe(
        _ components: [ComponentSpec], built: [String: BuiltStage], contexts: [String: PluginContext]
    ) throws -> StreamGraph {
        var graph = StreamGraph()
        let byName = Dictionary(components.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        var visiting: Set<String> = []

        func output(of name: String) throws -> StreamDescriptor {
            if let done = graph.outputs[name] { return done }
            guard let c = byName[name], let stage = built[name], let context = contexts[name] else {
                return StreamDescriptor()
            }
            // Validation refuses cycles; this only keeps a bad spec from recursing forever.
            guard visiting.insert(name).inserted else { return StreamDescriptor() }
            defer { visiting.remove(name) }
            let place = "\(c.kind.section).\(c.name)"
            do {
                switch stage {
                case .source(let s):
                    var d = try s.describe(context: context)
                    if d.origin.plugin == nil { d.origin.plugin = c.plugin.typeName }
                    graph.outputs[name] = d
                    return d
                case .transform(let t):
                    let input = try inputs(of: c)
                    let d = try t.describe(input: input, context: context)
                    graph.outputs[name] = d
                    return d
                case .sink:
                    _ = try inputs(of: c)
                    return StreamDescriptor()
                }
            } catch let e as PipelineStartError {
                throw e
            } catch {
                throw PipelineStartError(component: place, message: "\(error)", underlying: error)
            }
        }

        /// Records what `c` reads, and returns the merge.
        func inputs(of c: ComponentSpec) throws -> StreamDescriptor {
            var streams: [String: StreamDescriptor] = [:]
            var ordered: [StreamDescriptor] = []
            for input in c.inputs {
                let (producer, dead) = ComponentSpec.producer(of: input)
                var d = try output(of: producer)
                if dead { d = try deadLetters(of: producer) }
                streams[input] = d
                ordered.append(d)
            }
            graph.inputs[c.name] = streams
            return StreamDescriptor.merging(ordered) ?? StreamDescriptor()
        }

        /// What a component's dead letters carry: what it failed to handle, and why.
        func deadLetters(of name: String) throws -> StreamDescriptor {
            guard let c = byName[name] else { return StreamDescriptor() }
            var d: StreamDescriptor
            if c.kind == .source {
                d = try output(of: name)
            } else {
                if graph.inputs[name] == nil { _ = try output(of: name) }
                d = graph.input(of: name, order: c.inputs) ?? StreamDescriptor()
            }
            d.rate = .irregular
            return d.setting(StreamDescriptor.deadLetterFields)
        }

        for c in components { _ = try output(of: c.name) }
        return graph
    }
}

extension StreamDescriptor {
    /// The fields a dead letter adds to what was rejected: the input as text when it never
    /// became a sample, the reason, and the component that rejected it.
    public static let deadLetterFields = [
        FieldDescriptor("raw", .string), FieldDescriptor("error", .string), FieldDescriptor("component", .string),
    ]
}
