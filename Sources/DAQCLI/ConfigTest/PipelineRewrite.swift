import DAQCore
import Yams

/// Changes a validated pipeline for one case: fed samples take the place of a source, or of a
/// transform's or sink's inputs, and whatever then leads to no sink is left out.
struct PipelineRewrite {
    var spec: PipelineSpec
    /// Why a component of the original pipeline does not run in this case, by name.
    private(set) var removed: [String: String] = [:]

    /// Replaces with a `file` source reading `samples` (JSON Lines): `component` itself when
    /// it is a source, else its inputs, under `streamName` or the name of its only input.
    /// - Throws: when the `file` source is not registered or rejects the configuration.
    mutating func feed(_ component: String, samples path: String, streamName: String?, registry: PluginRegistry) throws
    {
        guard let i = spec.components.firstIndex(where: { $0.name == component }),
            let file = registry.lookup(.source, "file")
        else { return }
        let target = spec.components[i]
        var source = target
        source.kind = .source
        source.plugin = file
        source.inputs = []
        source.buffer = .default
        source.configuration = try file.decodeConfiguration(
            Node([(Node("path"), Node(path)), (Node("format"), Node("jsonl"))]))
        if target.kind == .source {
            spec.components[i] = source
            return
        }
        source.name = streamName ?? (target.inputs.count == 1 ? target.inputs[0] : "\(component)-input")
        for input in target.inputs where input != source.name {
            removed[input] = removed[input] ?? "the samples fed into '\(component)' take the place of its inputs"
        }
        if let existing = spec.components.firstIndex(where: { $0.name == source.name }) {
            removed[source.name] = "the samples fed into '\(component)' take its place"
            spec.components[existing] = source
        } else {
            spec.components.insert(source, at: 0)
        }
        if let j = spec.components.firstIndex(where: { $0.name == component }) {
            spec.components[j].inputs = [source.name]
        }
    }

    /// Leaves out components no sink reads from, directly or through others: they would run
    /// (read a device, a file) for nothing.
    mutating func prune() {
        var keep = Set(spec.components.filter { $0.kind == .sink }.map(\.name))
        var stack = Array(keep)
        while let name = stack.popLast() {
            for input in spec.component(name)?.inputs ?? [] where keep.insert(input).inserted {
                stack.append(input)
            }
        }
        for c in spec.components where !keep.contains(c.name) {
            removed[c.name] = removed[c.name] ?? "no sink reads from it once the input is fed"
        }
        spec.components.removeAll { !keep.contains($0.name) }
        for name in keep where spec.component(name) != nil { removed[name] = nil }
    }
}
