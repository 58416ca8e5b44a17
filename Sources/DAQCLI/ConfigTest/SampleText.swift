import DAQCore
import Foundation

/// How samples and values read in a failure: short, one line, like the YAML that asks for them.
enum SampleText {
    /// `{uptime: 0.5, x: 0.1, y: 0.2, …}`: metadata first, at most `limit` fields.
    static func sample(_ s: Sample, limit: Int = 8) -> String {
        var parts = ["uptime: \(number(s.uptime))"]
        if !s.stepPath.isEmpty { parts.append("stepPath: \(s.stepPath)") }
        if s.kind != .data { parts.append("kind: \(s.kind.name)") }
        // Null fields are left out: a batch pads fields other samples have with them.
        let fields = s.fields.pairs.filter { !$0.1.isNull }
        for (k, v) in fields.prefix(limit) { parts.append("\(k): \(value(v))") }
        if fields.count > limit { parts.append("…") }
        return "{" + parts.joined(separator: ", ") + "}"
    }

    static func value(_ v: Value) -> String {
        switch v {
        case .null: return "null"
        case .bool(let b): return "\(b)"
        case .int(let i): return "\(i)"
        case .double(let d): return number(d)
        case .string(let s): return "'\(s)'"
        case .bytes(let b): return "hex " + b.map { String(format: "%02x", $0) }.joined()
        case .array(let a): return "[" + a.map(value).joined(separator: ", ") + "]"
        case .object(let o): return "{" + o.pairs.map { "\($0.0): \(value($0.1))" }.joined(separator: ", ") + "}"
        }
    }

    static func number(_ d: Double) -> String {
        d == d.rounded() && abs(d) < 1e15 ? String(format: "%.1f", d) : "\(d)"
    }

    /// `60 s`, `0.5 s`.
    static func seconds(_ s: Double) -> String {
        (s == s.rounded() && abs(s) < 1e15 ? "\(Int(s))" : "\(s)") + " s"
    }

    static func list(_ items: [String]) -> String { "[" + items.joined(separator: ", ") + "]" }
}
