import DAQCore
import Yams

/// Checks that a plugin's described keys and its decoded keys agree: every key
/// `daq plugins describe` lists is read by decoding, every required key is required, and every
/// type text follows the grammar `daq schema` reads.
///
/// A configuration made of ``Setting``s agrees by construction; this catches the configurations
/// that decode by hand (the escape hatch), where a key listed but never decoded would be accepted
/// and silently ignored.
public enum KeyConformance {
    /// The disagreements, one sentence each; empty when the keys agree.
    /// - Parameters:
    ///   - plugin: The plugin, as registered.
    ///   - baseline: A configuration that decodes and validates (YAML, a mapping; empty when the
    ///     plugin needs no keys). Each key is tried with other values on top of it.
    public static func problems(_ plugin: PluginDescriptor, baseline: String) -> [String] {
        let name = "\(plugin.kind.rawValue) \(plugin.typeName)"
        guard let base = try? mapping(baseline) else { return ["\(name): the baseline is not a YAML mapping"] }
        let reference: String
        do {
            reference = fingerprint(try plugin.decodeConfiguration(node(base)))
        } catch {
            return ["\(name): the baseline does not decode: \(error)"]
        }
        var problems: [String] = []
        var seen: Set<String> = []
        for key in plugin.configKeys {
            if !seen.insert(key.name).inserted { problems.append("\(name): key '\(key.name)' is described twice") }
            if key.doc.isEmpty { problems.append("\(name): key '\(key.name)' has no help") }
            guard let type = key.valueType else {
                problems.append("\(name): key '\(key.name)' has type text '\(key.type)' outside the grammar")
                continue
            }
            if key.required, base.contains(where: { $0.0.string == key.name }),
                (try? plugin.decodeConfiguration(node(base.filter { $0.0.string != key.name }))) != nil
            {
                problems.append("\(name): key '\(key.name)' is described as required but decodes without it")
            }
            let read = probes(for: type).contains { probe in
                guard let value = try? Yams.compose(yaml: probe) else { return false }
                var pairs = base.filter { $0.0.string != key.name }
                pairs.append((Node(key.name), value))
                do {
                    return fingerprint(try plugin.decodeConfiguration(node(pairs))) != reference
                } catch let issue as ConfigIssue {
                    return issue.path.first == key.name
                } catch let error as DecodingError {
                    return error.codingPath.first?.stringValue == key.name
                } catch {
                    return false
                }
            }
            if !read {
                problems.append(
                    "\(name): key '\(key.name)' is described but decoding ignores it: no value of type '\(key.type)' changes the configuration or is refused"
                )
            }
        }
        return problems
    }

    /// Values of `type` in YAML, varied enough that one differs from any default.
    static func probes(for type: ConfigValueType) -> [String] {
        switch type {
        case .string, .path: ["daq_probe", "value > 1", "x"]
        case .integer: ["3", "7", "1"]
        case .number: ["0.5", "3", "1"]
        case .boolean: ["true", "false"]
        case .duration: ["7s", "250ms", "1"]
        case .any: ["daq_probe", "3"]
        case .null: ["null"]
        case .choice(let values): values
        case .list(let element): probes(for: element).map { "[\($0)]" }
        case .map(let value): probes(for: value).map { "{daq_probe: \($0)}" }
        case .record(let fields):
            fields.flatMap { field in probes(for: field.type ?? .any).map { "{\(field.name): \($0)}" } }
        case .either(let types): types.flatMap(probes(for:))
        }
    }

    private static func mapping(_ yaml: String) throws -> [(Node, Node)] {
        guard let root = try Yams.compose(yaml: yaml) else { return [] }
        guard case .mapping(let m) = root else { throw YamlError.representer(problem: "not a mapping") }
        return Array(m)
    }

    private static func node(_ pairs: [(Node, Node)]) -> Node { .mapping(Node.Mapping(pairs)) }

    /// Everything a configuration holds, class-held values included, as text to compare.
    private static func fingerprint(_ configuration: any PluginConfiguration) -> String {
        var text = ""
        dump(configuration, to: &text)
        return text
    }

}

extension DecodingError {
    fileprivate var codingPath: [any CodingKey] {
        switch self {
        case .typeMismatch(_, let c), .valueNotFound(_, let c), .keyNotFound(_, let c), .dataCorrupted(let c):
            c.codingPath
        @unknown default: []
        }
    }
}
