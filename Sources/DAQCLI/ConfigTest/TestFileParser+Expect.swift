import DAQCore
import Yams

extension TestFileParser {
    static let expectationKeys = [
        "only", "count", "where", "none", "samples", "tolerance", "fields", "steps", "markers", "file",
        "sent", "delivered", "failed",
    ]
    static let fileKeys = ["name", "items", "lines", "header", "contains"]

    /// `expect: {COMPONENT: {count, where, samples, …}}`.
    mutating func expectations(_ node: Node, _ path: String, spec: PipelineSpec) -> [ComponentExpectation] {
        var out: [ComponentExpectation] = []
        for p in reader.mapping(node, path, allowed: nil) ?? [] {
            let key = "\(path).\(p.key)"
            guard let target = component(p.key, p.keyNode, key, spec: spec),
                let pairs = reader.mapping(p.value, key, allowed: Self.expectationKeys)
            else { continue }
            var e = ComponentExpectation(component: target.name, place: reader.place(p.keyNode), only: nil, checks: [])
            let tolerance =
                pairs.first { $0.key == "tolerance" }.flatMap { reader.number($0.value, "\(key).tolerance") } ?? 1e-9
            for a in pairs {
                let akey = "\(key).\(a.key)"
                let place = reader.place(a.keyNode)
                var kind: Check.Kind?
                switch a.key {
                case "only": e.only = reader.expression(a.value, akey)
                case "tolerance": break
                case "count": kind = reader.count(a.value, akey).map { .count($0) }
                case "where": kind = reader.expression(a.value, akey).map { .every($0) }
                case "none": kind = reader.expression(a.value, akey).map { .none($0) }
                case "samples": kind = expectedSamples(a.value, akey).map { .samples($0, tolerance: tolerance) }
                case "fields": kind = reader.strings(a.value, akey).map { .fields($0.map(\.0)) }
                case "steps": kind = reader.strings(a.value, akey).map { .steps($0.map(\.0)) }
                case "markers", "file", "sent", "delivered", "failed":
                    guard target.kind == .sink else {
                        reader.error(
                            a.keyNode, akey,
                            "'\(a.key)' is about what a sink writes; '\(target.name)' is a \(target.kind.rawValue)")
                        continue
                    }
                    if a.key == "markers" {
                        kind = reader.strings(a.value, akey).map { .markers($0.map(\.0)) }
                    } else if a.key != "file" {
                        kind = reader.count(a.value, akey).map { .delivery(a.key, $0) }
                    } else {
                        kind = fileExpectation(a.value, akey).map { .file($0) }
                    }
                default: break
                }
                if let kind { e.checks.append(Check(key: akey, place: place, kind: kind)) }
            }
            out.append(e)
        }
        return out
    }

    private mutating func expectedSamples(_ node: Node, _ path: String) -> [ExpectedSample]? {
        guard case .sequence(let seq) = node else {
            reader.error(node, path, "expected a list of samples (mappings of field: value), found \(node.kindName)")
            return nil
        }
        return seq.enumerated().compactMap { i, s in
            guard let pairs = reader.mapping(s, "\(path)[\(i)]", allowed: nil) else { return nil }
            return ExpectedSample(
                place: reader.place(s), fields: pairs.map { ($0.key, Value(yaml: $0.value), reader.place($0.value)) })
        }
    }

    private mutating func fileExpectation(_ node: Node, _ path: String) -> FileExpectation? {
        guard let pairs = reader.mapping(node, path, allowed: Self.fileKeys) else { return nil }
        var f = FileExpectation(name: nil, items: nil, lines: nil, header: nil, contains: [], places: [:])
        for p in pairs {
            let key = "\(path).\(p.key)"
            f.places[p.key] = reader.place(p.keyNode)
            switch p.key {
            case "name": f.name = reader.string(p.value, key)
            case "items": f.items = reader.count(p.value, key)
            case "lines": f.lines = reader.count(p.value, key)
            case "header": f.header = reader.string(p.value, key)
            default: f.contains = (reader.strings(p.value, key) ?? []).map { ($0.0, reader.place($0.1)) }
            }
        }
        return f
    }

    static let eventKeys = ["status", "warnings", "errors", "timeouts", "notices", "dropped", "contains", "steps"]

    /// `events: {status, warnings, errors, timeouts, notices, dropped, contains, steps}`.
    mutating func events(_ node: Node, _ path: String, spec: PipelineSpec) -> EventExpectation {
        var e = EventExpectation()
        for p in reader.mapping(node, path, allowed: Self.eventKeys) ?? [] {
            let key = "\(path).\(p.key)"
            let place = reader.place(p.keyNode)
            switch p.key {
            case "status":
                guard let s = reader.string(p.value, key) else { continue }
                guard ["finished", "failed", "cancelled"].contains(s) else {
                    reader.error(p.value, key, "expected finished, failed or cancelled, found '\(s)'")
                    continue
                }
                e.status = s
                e.statusPlace = place
            case "contains": e.contains = (reader.strings(p.value, key) ?? []).map { ($0.0, reader.place($0.1)) }
            case "steps": e.steps = reader.strings(p.value, key).map { ($0.map(\.0), place) }
            default:
                if let count = eventCount(p.key, p.value, key, place: place, spec: spec) { e.counts.append(count) }
            }
        }
        return e
    }

    /// `2`, `{min: 1}`, or `{COMPONENT: 2, …}`.
    private mutating func eventCount(_ kind: String, _ node: Node, _ path: String, place: Place, spec: PipelineSpec)
        -> EventCount?
    {
        var count = EventCount(kind: kind, place: place, total: nil, byComponent: [])
        let keys = node.mapping.map { $0.keys.compactMap(\.string) } ?? []
        // A mapping with min or max is a range (where a misspelt key is reported); else by component.
        if case .mapping = node, !keys.contains("min") && !keys.contains("max") {
            for p in reader.mapping(node, path, allowed: nil) ?? [] {
                let key = "\(path).\(p.key)"
                guard component(p.key, p.keyNode, key, spec: spec) != nil, let n = reader.count(p.value, key) else {
                    continue
                }
                count.byComponent.append((p.key, n, reader.place(p.keyNode)))
            }
        } else {
            guard let n = reader.count(node, path) else { return nil }
            count.total = n
        }
        return count
    }
}
