import DAQCore

/// A topic with placeholders: `daq/{pipeline}/{stream}`, `fleet/{site}/{sensor}`.
///
/// `{pipeline}`, `{component}` (the sink's name), `{stream}` (the producing stage) and
/// `{kind}` come from the run; any other name is a field of the sample, written as its text
/// (`_` when the sample lacks it). A template without field or `{kind}` placeholders is rendered once per
/// batch, not once per sample.
public struct TopicTemplate: Sendable, Equatable {
    enum Part: Sendable, Equatable {
        case text(String)
        case pipeline, component, stream, kind
        case field(String)
    }

    let parts: [Part]

    /// Whether the topic can differ from sample to sample (a field or `{kind}` placeholder).
    public var perSample: Bool {
        parts.contains {
            switch $0 {
            case .field, .kind: return true
            default: return false
            }
        }
    }

    /// Parses a template.
    /// - Throws: ``ConfigIssue`` for an unclosed brace, an empty name, or MQTT wildcards.
    public init(_ text: String, key: String = "topic") throws {
        var parts: [Part] = []
        var literal = ""
        var i = text.startIndex
        while i < text.endIndex {
            let c = text[i]
            if c == "{" {
                guard let close = text[i...].firstIndex(of: "}") else {
                    throw ConfigIssue(key: key, "unclosed '{' in '\(text)'")
                }
                let name = String(text[text.index(after: i)..<close])
                guard !name.isEmpty else { throw ConfigIssue(key: key, "empty placeholder '{}' in '\(text)'") }
                if !literal.isEmpty { parts.append(.text(literal)) }
                literal = ""
                switch name {
                case "pipeline": parts.append(.pipeline)
                case "component": parts.append(.component)
                case "stream": parts.append(.stream)
                case "kind": parts.append(.kind)
                default: parts.append(.field(name))
                }
                i = text.index(after: close)
                continue
            }
            if c == "+" || c == "#" {
                throw ConfigIssue(key: key, "a topic to publish to cannot hold the wildcard '\(c)'")
            }
            literal.append(c)
            i = text.index(after: i)
        }
        if !literal.isEmpty { parts.append(.text(literal)) }
        guard !parts.isEmpty else { throw ConfigIssue(key: key, "must not be empty") }
        self.parts = parts
    }

    /// The topic of sample `row` of `batch` (any row when ``usesFields`` is false).
    public func render(_ batch: Batch, row: Int, pipeline: String, component: String) -> String {
        var out = ""
        for p in parts {
            switch p {
            case .text(let t): out += t
            case .pipeline: out += pipeline
            case .component: out += component
            case .stream: out += batch.stream
            case .kind: out += batch.kinds[row].name
            case .field(let name):
                out += Self.text(batch.value(name, at: row))
            }
        }
        return out
    }

    /// A field value as one topic level: `/`, `+`, `#` would change the topic's shape, and a
    /// broker drops the connection of a client that publishes U+0000 in a topic.
    private static func text(_ v: Value?) -> String {
        let raw: String
        switch v {
        case .string(let s)?: raw = s
        case .int(let i)?: raw = String(i)
        case .bool(let b)?: raw = b ? "true" : "false"
        case .double(let d)?: raw = d.description
        default: return "_"
        }
        if raw.isEmpty { return "_" }
        return String(raw.map { $0 == "/" || $0 == "+" || $0 == "#" || $0 == "\0" ? "_" : $0 })
    }
}
