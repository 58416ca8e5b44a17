import Yams

/// The rules about how components connect: inputs exist, no component reads itself or a sink,
/// no cycles; unread sources and components that reach no sink are warnings.
extension Validation {
    mutating func validateGraph(_ entries: [ComponentEntry]) {
        let byName = Dictionary(entries.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        let names = entries.map(\.name)
        for entry in entries {
            let path = "\(entry.kind.section).\(entry.name).inputs"
            for input in entry.inputs {
                if input.name.hasSuffix(ComponentSpec.deadLetterSuffix) {
                    validateDeadLetterInput(input, of: entry, byName: byName, names: names)
                } else if input.name == entry.name {
                    error(input.node, path, "a \(entry.kind.rawValue) cannot read its own output")
                } else if let target = byName[input.name] {
                    if target.kind == .sink {
                        error(input.node, path, "'\(input.name)' is a sink; sinks produce no output to read")
                    }
                } else {
                    var message = "unknown component '\(input.name)'"
                    if let guess = DidYouMean.best(input.name, in: names) { message += " (did you mean '\(guess)'?)" }
                    error(input.node, path, message)
                }
            }
        }
        // A dead-letter edge is an edge from its component: cycles and dead ends see it so.
        let flowing = entries.map { e -> ComponentEntry in
            var e = e
            e.inputs = e.inputs.map {
                ($0.name.hasSuffix(ComponentSpec.deadLetterSuffix) ? String($0.name.dropLast(5)) : $0.name, $0.node)
            }
            return e
        }
        let flowingByName = Dictionary(flowing.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        reportCycles(flowing, byName: flowingByName)
        reportDeadEnds(flowing, byName: flowingByName)
    }

    /// `X.dead` is valid when X exists and sends dead letters (`on_error: dead_letter`).
    private mutating func validateDeadLetterInput(
        _ input: (name: String, node: Node), of entry: ComponentEntry, byName: [String: ComponentEntry], names: [String]
    ) {
        let path = "\(entry.kind.section).\(entry.name).inputs"
        let base = String(input.name.dropLast(ComponentSpec.deadLetterSuffix.count))
        guard let producer = byName[base] else {
            var message = "unknown component '\(base)' in '\(input.name)'"
            if let guess = DidYouMean.best(base, in: names) { message += " (did you mean '\(guess).dead'?)" }
            error(input.node, path, message)
            return
        }
        if base == entry.name {
            error(input.node, path, "a \(entry.kind.rawValue) cannot read its own dead letters")
        } else if let spec = producer.spec, spec.onError != .deadLetter {
            error(
                input.node, path,
                "'\(base)' sends no dead letters; set 'on_error: dead_letter' on it to read '\(input.name)'")
        }
    }

    /// Reports each cycle once, naming it `a → b → a`, at the input that closes it.
    private mutating func reportCycles(_ entries: [ComponentEntry], byName: [String: ComponentEntry]) {
        var state: [String: Int] = [:]  // 1 visiting, 2 done
        var stack: [String] = []
        var reported: Set<String> = []
        func visit(_ name: String, _ v: inout Validation) {
            state[name] = 1
            stack.append(name)
            for input in byName[name]?.inputs ?? [] where input.name != name && byName[input.name] != nil {
                if state[input.name] == 1 {
                    let start = stack.firstIndex(of: input.name)!
                    let cycle = Array(stack[start...])
                    let key = cycle.sorted().joined(separator: ",")
                    if reported.insert(key).inserted {
                        // Data flows input → reader, so print the cycle in that direction.
                        let flow = ([input.name] + cycle.reversed()).joined(separator: " → ")
                        let entry = byName[name]!
                        v.error(input.node, "\(entry.kind.section).\(name).inputs", "cycle: \(flow)")
                    }
                } else if state[input.name] == nil {
                    visit(input.name, &v)
                }
            }
            stack.removeLast()
            state[name] = 2
        }
        for entry in entries where state[entry.name] == nil { visit(entry.name, &self) }
    }

    private mutating func reportDeadEnds(_ entries: [ComponentEntry], byName: [String: ComponentEntry]) {
        var readers: [String: [String]] = [:]
        for e in entries { for i in e.inputs { readers[i.name, default: []].append(e.name) } }
        var reachesSink: Set<String> = Set(entries.filter { $0.kind == .sink }.map(\.name))
        var changed = true
        while changed {
            changed = false
            for e in entries where !reachesSink.contains(e.name) {
                if (readers[e.name] ?? []).contains(where: reachesSink.contains) {
                    reachesSink.insert(e.name)
                    changed = true
                }
            }
        }
        for e in entries where e.kind != .sink {
            let path = "\(e.kind.section).\(e.name)"
            if (readers[e.name] ?? []).isEmpty {
                warning(
                    e.keyNode, path,
                    e.kind == .source ? "source is read by no component" : "output is read by no component")
            } else if !reachesSink.contains(e.name) {
                warning(e.keyNode, path, "no path from here to a sink: its samples are never written")
            }
        }
    }
}
