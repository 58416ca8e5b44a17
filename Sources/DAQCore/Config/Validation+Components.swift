import Yams

/// A component as seen during validation: where it is, what it reads, and its spec when valid.
struct ComponentEntry {
    var name: String
    var kind: PluginKind
    var keyNode: Node
    var inputs: [(name: String, node: Node)]
    var spec: ComponentSpec?
}

extension Validation {
    /// Keys every component of `kind` accepts besides its plugin's own.
    static func commonKeys(_ kind: PluginKind) -> [String] {
        ["type"] + ComponentSpec.commonKeys(kind).map(\.name)
    }

    mutating func validateComponents(_ root: Node) -> [ComponentEntry] {
        var entries: [ComponentEntry] = []
        var seen: [String: String] = [:]
        for kind in PluginKind.allCases {
            guard let section = root.pair(kind.section), !section.value.isNullScalar else {
                if kind != .transform {
                    error(
                        line: root.mark?.line ?? 1, column: root.mark?.column ?? 1, path: kind.section,
                        "missing '\(kind.section)': a pipeline needs at least one \(kind.rawValue)")
                }
                continue
            }
            guard let pairs = section.value.pairs else {
                error(
                    section.value, kind.section,
                    "expected a mapping of component names to components, found \(section.value.kindName)")
                continue
            }
            if pairs.isEmpty && kind != .transform {
                error(section.value, kind.section, "a pipeline needs at least one \(kind.rawValue)")
            }
            for (key, value) in pairs {
                guard let name = key.string, !name.isEmpty, !key.isNullScalar else {
                    error(key, kind.section, "a component name must be a non-empty string")
                    continue
                }
                let path = "\(kind.section).\(name)"
                if name.contains(where: { $0 == "." || $0 == "/" || $0 == " " }) {
                    error(key, path, "component names may not contain '.', '/' or spaces")
                }
                if let other = seen[name] {
                    error(
                        key, path,
                        "the name '\(name)' is already used by \(other).\(name); names are unique across sections")
                    continue
                }
                seen[name] = kind.section
                entries.append(validateComponent(name: name, kind: kind, key: key, value: value, path: path))
            }
        }
        return entries
    }

    mutating func validateComponent(name: String, kind: PluginKind, key: Node, value: Node, path: String)
        -> ComponentEntry
    {
        var entry = ComponentEntry(name: name, kind: kind, keyNode: key, inputs: [], spec: nil)
        guard let pairs = value.pairs else {
            error(value.isNullScalar ? key : value, path, "expected a mapping with 'type', found \(value.kindName)")
            return entry
        }
        entry.inputs = validateInputs(kind: kind, component: value, key: key, path: path)
        guard let typePair = value.pair("type") else {
            error(key, path, "missing required key 'type'")
            return entry
        }
        // `type: null` names the null sink; YAML reads the bare word as a null value.
        guard let typeName = typePair.value.scalar?.string,
            !typePair.value.isNullScalar || typePair.value.scalar?.string == "null"
        else {
            error(typePair.value, "\(path).type", "expected a plugin type name, found \(typePair.value.kindName)")
            return entry
        }
        guard let plugin = registry.lookup(kind, typeName) else {
            let known = registry.plugins(of: kind).map(\.typeName)
            var message = "unknown \(kind.rawValue) type '\(typeName)'"
            if let guess = DidYouMean.best(typeName, in: known) { message += " (did you mean '\(guess)'?)" }
            let elsewhere = registry.plugins(named: typeName).map(\.kind.rawValue)
            if !elsewhere.isEmpty { message += "; '\(typeName)' is a \(elsewhere.joined(separator: " and ")) type" }
            message += "; known \(kind.rawValue) types: \(known.joined(separator: ", "))"
            error(typePair.value, "\(path).type", message)
            return entry
        }
        let common = Self.commonKeys(kind)
        let allowed = common + plugin.configKeys.map(\.name)
        var pluginPairs: [(Node, Node)] = []
        for (k, v) in pairs {
            let keyName = k.string ?? "?"
            if common.contains(keyName) { continue }
            if kind == .source, keyName == "inputs" || keyName == "buffer" {
                error(k, "\(path).\(keyName)", "a source reads no other component, so it takes no '\(keyName)'")
                continue
            }
            guard allowed.contains(keyName) else {
                var message = "unknown key '\(keyName)' for \(kind.rawValue) type '\(typeName)'"
                if let guess = DidYouMean.best(keyName, in: allowed) { message += " (did you mean '\(guess)'?)" }
                message += "; see 'daq plugins describe \(typeName)'"
                error(k, "\(path).\(keyName)", message)
                continue
            }
            // A `*_env` key names a variable; a value that cannot is most likely the password
            // or token itself, so it is refused without being echoed.
            if keyName.hasSuffix("_env"), let text = v.string, !text.isEmpty, !SecretText.isVariableName(text) {
                error(
                    v, "\(path).\(keyName)",
                    "expected the name of an environment variable (letters, digits and _), not shown here: "
                        + "it may be the secret itself, which belongs in the variable")
                continue
            }
            pluginPairs.append((k, v))
        }
        let buffer = validateBuffer(value.pair("buffer"), path: path)
        let onError = decodeEnum(ErrorPolicy.self, value.pair("on_error"), "\(path).on_error") ?? .stop
        let pause =
            kind == .source ? decodeEnum(PauseHandling.self, value.pair("pause"), "\(path).pause") ?? .drop : .drop
        // Decoding stops at the first bad key; drop that key and decode again, so every bad key
        // of the component is reported, not only the first.
        var remaining = pluginPairs
        var dropped: Set<String> = []
        var failed = false
        for _ in 0...pluginPairs.count {
            let configNode = Node.mapping(Node.Mapping(remaining, Tag(.map), .block, value.mark))
            do {
                let configuration = try plugin.decodeConfiguration(configNode)
                if let dependent = configuration as? any ClockDependentConfiguration {
                    try dependent.validate(clock: clock)
                }
                if !failed {
                    entry.spec = ComponentSpec(
                        name: name, kind: kind, plugin: plugin, inputs: entry.inputs.map(\.name),
                        buffer: buffer ?? .default, configuration: configuration, onError: onError, pause: pause,
                        fingerprint: Self.fingerprint(of: pairs, mark: value.mark))
                }
                return entry
            } catch let issue as ConfigIssue {
                // After a dropped key, validate() sees its default: report only what the user wrote.
                if !dropped.contains(issue.path.first ?? "") { report(issue, in: configNode, key: key, path: path) }
                return entry
            } catch let decoding as DecodingError {
                if case .keyNotFound(let missing, let context) = decoding, context.codingPath.isEmpty,
                    dropped.contains(missing.stringValue)
                {
                    return entry
                }
                failed = true
                let (message, node, keys) = DecodingErrorLocator(root: configNode).describe(decoding)
                // A value from --set has no mark: report it without a position, named as set by --set.
                let target: Node? = node == configNode ? key : node.mark == nil ? nil : node
                error(target, ([path] + keys).joined(separator: "."), message)
                guard let top = keys.first, remaining.contains(where: { $0.0.string == top }) else { return entry }
                remaining.removeAll { $0.0.string == top }
                dropped.insert(top)
            } catch let other {
                error(key, path, "\(other)")
                return entry
            }
        }
        return entry
    }

    private mutating func report(_ issue: ConfigIssue, in configNode: Node, key: Node, path: String) {
        let located = DecodingErrorLocator(root: configNode).node(at: issue.path.map { AnyKey($0) })
        let node = located.complete ? located.node : (located.keyNode ?? key)
        let quoted = node.scalar.map { $0.style == .singleQuoted || $0.style == .doubleQuoted } ?? false
        error(
            node.mark == nil ? nil : node, ([path] + issue.path).joined(separator: "."), issue.message,
            offset: (issue.offset ?? 0) + (quoted ? 1 : 0))
    }

    mutating func validateInputs(kind: PluginKind, component: Node, key: Node, path: String) -> [(
        name: String, node: Node
    )] {
        guard kind != .source else { return [] }
        guard let pair = component.pair("inputs") else {
            error(key, path, "missing 'inputs': a \(kind.rawValue) reads at least one component")
            return []
        }
        var names: [(String, Node)] = []
        switch pair.value {
        case .scalar(let s) where !pair.value.isNullScalar:
            names = [(s.string, pair.value)]
        case .sequence(let seq):
            for item in seq {
                guard let s = item.scalar?.string, !item.isNullScalar else {
                    error(item, "\(path).inputs", "expected a component name, found \(item.kindName)")
                    continue
                }
                names.append((s, item))
            }
            if seq.isEmpty { error(pair.value, "\(path).inputs", "a \(kind.rawValue) reads at least one component") }
        default:
            error(
                pair.value, "\(path).inputs",
                "expected a component name or a list of names, found \(pair.value.kindName)")
        }
        return names.map { (name: $0.0, node: $0.1) }
    }

    mutating func validateBuffer(_ pair: (key: Node, value: Node)?, path: String) -> BufferSpec? {
        guard let pair else { return nil }
        let p = "\(path).buffer"
        guard let pairs = pair.value.pairs else {
            error(pair.value, p, "expected a mapping {size, when_full}, found \(pair.value.kindName)")
            return nil
        }
        for (k, _) in pairs where !["size", "when_full"].contains(k.string ?? "") {
            let name = k.string ?? "?"
            let guess = DidYouMean.best(name, in: ["size", "when_full"]).map { " (did you mean '\($0)'?)" } ?? ""
            error(k, "\(p).\(name)", "unknown key '\(name)'\(guess); expected size and when_full")
        }
        var spec = BufferSpec.default
        if let size = pair.value.pair("size") {
            if let n = size.value.scalar.flatMap({ Int($0.string) }) {
                if n >= 1 {
                    spec.size = n
                } else {
                    error(size.value, "\(p).size", "must be at least 1 sample, found \(n)")
                }
            } else {
                error(size.value, "\(p).size", "expected a number of samples, found \(describe(size.value))")
            }
        }
        if let policy = decodeEnum(WhenFull.self, pair.value.pair("when_full"), "\(p).when_full") {
            spec.whenFull = policy
        }
        return spec
    }

    /// The component's settings as YAML text, `inputs` left out: a reload rewires a component
    /// whose inputs alone changed and keeps it running.
    static func fingerprint(of pairs: [(Node, Node)], mark: Mark?) -> String {
        let settings = pairs.filter { $0.0.string != "inputs" }
        return (try? Yams.serialize(node: .mapping(Node.Mapping(settings, Tag(.map), .block, mark)))) ?? ""
    }
}
