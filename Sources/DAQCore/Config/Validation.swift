import Yams

/// The state of one validation pass: the diagnostics found so far and the checks that add to them.
struct Validation {
    var file: String
    var registry: PluginRegistry
    var diagnostics: [Diagnostic] = []
    /// The pipeline's clock, for ``ClockDependentConfiguration``s; known before components are read.
    var clock = ClockMode.realtime
    /// Key paths set by `--set`, named in messages since they have no line in the file.
    var overridden: Set<String> = []

    init(file: String, registry: PluginRegistry) {
        self.file = file
        self.registry = registry
    }

    mutating func error(line: Int?, column: Int?, path: String, _ message: String) {
        diagnostics.append(
            Diagnostic(file: file, line: line, column: column, severity: .error, path: path, message: message))
    }

    mutating func error(_ node: Node?, _ path: String, _ message: String, offset: Int = 0) {
        report(.error, node, path, message, offset: offset)
    }

    mutating func warning(_ node: Node?, _ path: String, _ message: String) {
        report(.warning, node, path, message, offset: 0)
    }

    private mutating func report(
        _ severity: Diagnostic.Severity, _ node: Node?, _ path: String, _ message: String, offset: Int
    ) {
        var message = message
        let mark = node?.mark
        if mark == nil, overridden.contains(where: { path == $0 || path.hasPrefix($0 + ".") }) {
            message += " (set by --set)"
        }
        diagnostics.append(
            Diagnostic(
                file: file, line: mark?.line, column: mark.map { $0.column + offset }, severity: severity,
                path: path, message: message))
    }

    /// Validates the whole document; returns a spec, meaningful only when no error was added.
    mutating func validate(_ root: Node, defaultName: String, hash: String) -> PipelineSpec? {
        let pairs = root.pairs ?? []
        for (key, _) in pairs {
            guard let name = key.string, PipelineLoader.topLevelKeys.contains(name) else {
                let name = key.string ?? "?"
                var message = "unknown top-level key '\(name)'"
                if let guess = DidYouMean.best(name, in: PipelineLoader.topLevelKeys) {
                    message += " (did you mean '\(guess)'?)"
                }
                message += "; expected one of: \(PipelineLoader.topLevelKeys.joined(separator: ", "))"
                error(key, name, message)
                continue
            }
        }
        let name =
            root.pair("name").flatMap { pair -> String? in
                guard let s = pair.value.scalar?.string, !s.isEmpty, !pair.value.isNullScalar else {
                    error(pair.value, "name", "expected a non-empty string")
                    return nil
                }
                if let problem = PipelineName.problem(s) {
                    error(
                        pair.value, "name",
                        "\(PipelineName.quoted(s)) \(problem); a pipeline name names its run directory")
                    return nil
                }
                return s
            } ?? (PipelineName.problem(defaultName) == nil ? defaultName : "pipeline")
        let clock = decodeEnum(ClockMode.self, root.pair("clock"), "clock") ?? .realtime
        var speed = 1.0
        if let pair = root.pair("speed") {
            if let d = pair.value.scalar.flatMap({ Double($0.string) }),
                pair.value.scalar?.style == .plain || pair.value.mark == nil
            {
                if d > 0, d.isFinite {
                    speed = d
                } else {
                    error(pair.value, "speed", "must be greater than 0, found \(pair.value.scalar!.string)")
                }
            } else {
                error(pair.value, "speed", "expected a number greater than 0, found \(describe(pair.value))")
            }
        }
        let steps = validateSteps(root.pair("steps"))
        let metrics = validateMetrics(root.pair("metrics"))
        self.clock = clock
        let components = validateComponents(root)
        validateGraph(components)
        return PipelineSpec(
            name: name, clock: clock, speed: speed, steps: steps, components: components.compactMap(\.spec),
            file: file, configHash: hash, warnings: [], metrics: metrics)
    }

    func describe(_ node: Node) -> String {
        if let s = node.scalar, !node.isNullScalar { return "'\(s.string)'" }
        return node.kindName
    }

    mutating func decodeEnum<E: ConfigEnum>(_ type: E.Type, _ pair: (key: Node, value: Node)?, _ path: String) -> E? {
        guard let pair else { return nil }
        guard let raw = pair.value.scalar?.string, !pair.value.isNullScalar else {
            error(pair.value, path, "expected one of \(E.choices), found \(pair.value.kindName)")
            return nil
        }
        if let value = E(rawValue: raw) { return value }
        var message = "unknown value '\(raw)'"
        if let guess = DidYouMean.best(raw, in: E.allCases.map(\.rawValue)) { message += " (did you mean '\(guess)'?)" }
        error(pair.value, path, message + "; expected one of: \(E.choices)")
        return nil
    }

    mutating func validateSteps(_ pair: (key: Node, value: Node)?) -> [StepSpec] {
        guard let pair, !pair.value.isNullScalar else { return [] }
        guard case .sequence(let seq) = pair.value else {
            error(pair.value, "steps", "expected a list of {path, at}, found \(pair.value.kindName)")
            return []
        }
        var steps: [StepSpec] = []
        var previous: Double?
        for (i, item) in seq.enumerated() {
            let p = "steps[\(i)]"
            guard let itemPairs = item.pairs else {
                error(item, p, "expected a mapping {path, at}, found \(item.kindName)")
                continue
            }
            for (k, _) in itemPairs where !["path", "at"].contains(k.string ?? "") {
                let name = k.string ?? "?"
                let guess = DidYouMean.best(name, in: ["path", "at"]).map { " (did you mean '\($0)'?)" } ?? ""
                error(k, "\(p).\(name)", "unknown key '\(name)'\(guess); expected path and at")
            }
            let path = item.pair("path")
            let at = item.pair("at")
            if path == nil { error(item, p, "missing required key 'path'") }
            if at == nil { error(item, p, "missing required key 'at'") }
            guard let path, let at else { continue }
            guard let pathText = path.value.scalar?.string, !path.value.isNullScalar else {
                error(
                    path.value, "\(p).path", "expected a step path such as walk/outbound, found \(path.value.kindName)")
                continue
            }
            guard let atText = at.value.scalar?.string, let t = Seconds.parse(atText) else {
                error(at.value, "\(p).at", "expected seconds from the run start, found \(describe(at.value))")
                continue
            }
            if t < 0 || !t.isFinite {
                error(at.value, "\(p).at", "must be 0 or more seconds, found \(atText)")
                continue
            }
            if let previous, t <= previous {
                error(
                    at.value, "\(p).at",
                    "step times must increase: \(atText) is not after the previous step's \(Self.format(previous))")
            }
            previous = t
            steps.append(StepSpec(path: pathText, at: t))
        }
        return steps
    }

    static func format(_ d: Double) -> String {
        d == d.rounded() && abs(d) < 1e15 ? String(Int64(d)) : String(d)
    }
}
