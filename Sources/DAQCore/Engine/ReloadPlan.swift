/// Why a new configuration cannot be applied to a running pipeline.
public struct ReloadRefusal: Error, CustomStringConvertible {
    public var description: String
}

/// What a reload did, component by component.
public struct ReloadReport: Sendable, CustomStringConvertible {
    /// Transforms whose new settings took effect between two batches, in the same stage.
    public var replaced: [String] = []
    /// Components that drained, stopped and started again with their new settings.
    public var restarted: [String] = []
    /// Components that are new, and components no longer in the file (drained and stopped).
    public var added: [String] = []
    public var removed: [String] = []
    /// Components kept running whose inputs changed.
    public var rewired: [String] = []
    /// Components that could not take their new settings, with the error: each has failed,
    /// and the run stops as it would for any failed component.
    public var failed: [String] = []

    /// Whether the new file changed nothing that runs.
    public var isEmpty: Bool { [replaced, restarted, added, removed, rewired].allSatisfy(\.isEmpty) }

    public var description: String {
        guard !isEmpty else { return "nothing changed" }
        let parts: [(String, [String])] = [
            ("replaced", replaced), ("restarted", restarted), ("added", added), ("removed", removed),
            ("rewired", rewired),
        ]
        let done = parts.filter { !$0.1.isEmpty }.map { "\($0.0) \($0.1.joined(separator: ", "))" }
        return (done + failed.map { "failed \($0)" }).joined(separator: "; ")
    }
}

/// What changes between two configurations of one pipeline, from the files alone.
struct ReloadPlan {
    /// In both, settings unchanged (inputs may differ).
    var kept: [ComponentSpec] = []
    /// In both, settings changed.
    var changed: [ComponentSpec] = []
    var added: [ComponentSpec] = []
    var removed: [ComponentSpec] = []
    /// Components in both whose inputs differ.
    var rewired: Set<String> = []

    /// - Throws: ``ReloadRefusal`` for what only a new run can change.
    init(from old: PipelineSpec, to new: PipelineSpec) throws {
        func refuse(_ what: String, _ why: String) -> ReloadRefusal {
            ReloadRefusal(description: "\(what) changed: \(why); restart the run for this")
        }
        if old.name != new.name {
            throw refuse("the pipeline's name", "it names the run's directory and control socket")
        }
        if old.clock != new.clock || old.speed != new.speed {
            throw refuse("the clock", "samples already stamped would not share a time base with new ones")
        }
        if old.steps != new.steps {
            throw refuse("the steps", "step markers already written would no longer match them")
        }
        if old.metrics != new.metrics {
            throw refuse("the metrics section", "the endpoint is served for the whole run")
        }
        let before = Dictionary(old.components.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        let names = Set(new.components.map(\.name))
        for c in new.components {
            guard let o = before[c.name] else {
                added.append(c)
                continue
            }
            if o.inputs != c.inputs { rewired.insert(c.name) }
            if o.fingerprint == c.fingerprint && o.kind == c.kind { kept.append(c) } else { changed.append(c) }
        }
        removed = old.components.filter { !names.contains($0.name) }
    }

    /// Whether a changed component can take its new settings in its running stage: a transform
    /// of the same type, buffer and error policy whose work is over when `process` returns.
    static func replacesInPlace(_ c: ComponentSpec, was o: ComponentSpec, stage: StageRuntime) -> Bool {
        guard c.kind == .transform, o.kind == .transform, let t = stage as? TransformStage else { return false }
        return o.plugin.typeName == c.plugin.typeName && o.buffer == c.buffer && o.onError == c.onError
            && !(t.transform is any DeferredWork)
    }
}
