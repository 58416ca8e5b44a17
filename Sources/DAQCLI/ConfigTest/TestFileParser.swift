import DAQCore
import DAQSHA256
import Foundation
import Yams

/// Reads a `*.daqtest.yaml` and the pipeline it names, checking every component it mentions
/// against that pipeline; every problem is a diagnostic at its line and column.
struct TestFileParser {
    static let topKeys = ["pipeline", "env", "set", "requires", "services", "cases"]
    static let caseKeys = ["name", "env", "set", "timeout", "clock", "speed", "batch", "input", "expect", "events"]

    var reader: NodeReader
    let registry: PluginRegistry

    /// The parsed file. One whose `requires:` are not met is only read for its cases' names:
    /// its pipeline may not even load without them.
    /// - Throws: ``ConfigError`` with every problem in the test file or its pipeline.
    static func parse(path: String, registry: PluginRegistry) throws(ConfigError) -> TestFile {
        let root = try YAMLFile.compose(path: path, limit: 4 << 20, kind: "a test file (*.daqtest.yaml)")
        var parser = TestFileParser(reader: NodeReader(file: path), registry: registry)
        let result = parser.parseFile(root, path: path)
        guard let result, parser.reader.diagnostics.isEmpty else { throw ConfigError(parser.reader.diagnostics) }
        return result
    }

    private mutating func parseFile(_ root: Node, path: String) -> TestFile? {
        guard let pairs = reader.mapping(root, "", allowed: Self.topKeys) else { return nil }
        var file = TestFile(path: path, pipeline: "", environment: [:], overrides: [], cases: [])
        if let node = pairs.first(where: { $0.key == "requires" })?.value {
            if let env = pairs.first(where: { $0.key == "env" }) { file.environment = environment(env.value, "env") }
            file.requires = requires(node, "requires")
            let environment = ProcessInfo.processInfo.environment.merging(file.environment) { $1 }
            let unset = file.requires.map(\.name).filter { (environment[$0] ?? "").isEmpty }
            if !unset.isEmpty {
                file.unmet = unset
                file.cases = caseNames(pairs.first { $0.key == "cases" }?.value ?? root)
                return file
            }
        }
        var pipelineNode: Node?
        var casesNode: Node?
        for p in pairs {
            switch p.key {
            case "pipeline": pipelineNode = p.value
            case "env" where file.requires.isEmpty: file.environment = environment(p.value, "env")
            case "env", "requires": break  // read above
            case "set": file.overrides = overrides(p.value, "set")
            case "services": file.services = services(p.value, "services", testFile: path)
            default: casesNode = p.value
            }
        }
        guard let pipelineNode else {
            reader.error(
                root, "pipeline", "missing 'pipeline': the pipeline file this tests, relative to the test file")
            return nil
        }
        guard let name = reader.string(pipelineNode, "pipeline") else { return nil }
        file.pipeline = Self.resolve(name, besides: path)
        let spec: PipelineSpec
        do {
            let environment = ProcessInfo.processInfo.environment.merging(file.environment) { $1 }
            spec = try PipelineLoader(
                registry: registry, environment: environment, overrides: file.overrides.map(\.argument),
                contentHash: .sha256
            )
            .load(file: file.pipeline)
        } catch {
            reader.error(pipelineNode, "pipeline", "the pipeline '\(file.pipeline)' is not valid:")
            for d in error.diagnostics where d.severity == .error { reader.add(d) }
            return nil
        }
        guard let casesNode, case .sequence(let seq) = casesNode, !seq.isEmpty else {
            reader.error(casesNode ?? root, "cases", "expected a non-empty list of cases")
            return nil
        }
        var names: Set<String> = []
        for (i, node) in seq.enumerated() {
            guard let c = parseCase(node, "cases[\(i)]", spec: spec) else { continue }
            if !names.insert(c.name).inserted {
                reader.error(node, "cases[\(i)].name", "another case is named '\(c.name)'")
            }
            file.cases.append(c)
        }
        return file
    }

    /// Only the cases' names, for the report of a skipped file.
    private mutating func caseNames(_ node: Node) -> [TestCase] {
        guard case .sequence(let seq) = node else { return [] }
        return seq.enumerated().map { i, n in
            let name = CaseWorkspace.child(n, "name")?.string ?? "cases[\(i)]"
            return TestCase(
                name: name, place: reader.place(n), environment: [:], overrides: [], feeds: [], expectations: [],
                events: EventExpectation())
        }
    }

    /// A path in the test file is relative to the test file's folder, unless absolute.
    static func resolve(_ name: String, besides testFile: String) -> String {
        if name.hasPrefix("/") { return name }
        let dir = (testFile as NSString).deletingLastPathComponent
        return dir.isEmpty ? name : (dir as NSString).appendingPathComponent(name)
    }

    private mutating func parseCase(_ node: Node, _ path: String, spec: PipelineSpec) -> TestCase? {
        guard let pairs = reader.mapping(node, path, allowed: Self.caseKeys) else { return nil }
        var c = TestCase(
            name: "", place: reader.place(node), environment: [:], overrides: [], feeds: [], expectations: [],
            events: EventExpectation())
        for p in pairs {
            let key = "\(path).\(p.key)"
            switch p.key {
            case "name": c.name = reader.string(p.value, key) ?? ""
            case "env": c.environment = environment(p.value, key)
            case "set": c.overrides = overrides(p.value, key)
            case "timeout":
                guard let seconds = reader.number(p.value, key) else { continue }
                guard seconds > 0 else {
                    reader.error(p.value, key, "expected seconds greater than 0, found \(seconds)")
                    continue
                }
                c.timeout = seconds
                c.timeoutPlace = reader.place(p.keyNode)
            case "clock":
                guard let text = reader.string(p.value, key) else { continue }
                guard let mode = ClockMode(rawValue: text) else {
                    reader.error(p.value, key, "expected virtual, replay or realtime, found '\(text)'")
                    continue
                }
                c.clock = mode
            case "speed":
                guard let speed = reader.number(p.value, key) else { continue }
                guard speed > 0 else {
                    reader.error(p.value, key, "expected a replay speed greater than 0, found \(speed)")
                    continue
                }
                c.speed = speed
            case "batch":
                guard let size = reader.number(p.value, key) else { continue }
                guard size >= 1, size == size.rounded(), size <= 1_000_000 else {
                    reader.error(p.value, key, "expected a whole number of samples from 1 to 1000000, found \(size)")
                    continue
                }
                c.batchSize = Int(size)
            case "input": c.feeds = feeds(p.value, key, spec: spec)
            case "expect": c.expectations = expectations(p.value, key, spec: spec)
            default: c.events = events(p.value, key, spec: spec)
            }
        }
        if c.name.isEmpty { reader.error(node, "\(path).name", "every case needs a 'name'") }
        if !pairs.contains(where: { $0.key == "expect" || $0.key == "events" }) {
            reader.error(node, path, "the case asserts nothing: add 'expect' or 'events'")
        }
        return c
    }

    private mutating func environment(_ node: Node, _ path: String) -> [String: String] {
        var out: [String: String] = [:]
        for p in reader.mapping(node, path, allowed: nil) ?? [] {
            if let v = reader.string(p.value, "\(path).\(p.key)") { out[p.key] = v }
        }
        return out
    }

    private mutating func overrides(_ node: Node, _ path: String) -> [Override] {
        (reader.mapping(node, path, allowed: nil) ?? []).compactMap { p in
            // Serialized back to YAML text: the loader parses a --set value as YAML.
            guard let yaml = try? Yams.serialize(node: p.value).trimmingCharacters(in: .whitespacesAndNewlines) else {
                reader.error(p.value, "\(path).\(p.key)", "cannot use this value as an override")
                return nil
            }
            return Override(key: p.key, yaml: yaml, place: reader.place(p.keyNode))
        }
    }

    /// The component named by `keyNode`, or an error with a suggestion.
    mutating func component(_ name: String, _ keyNode: Node, _ path: String, spec: PipelineSpec) -> ComponentSpec? {
        if let c = spec.component(name) { return c }
        let names = spec.components.map(\.name)
        let guess = DidYouMean.best(name, in: names).map { " (did you mean '\($0)'?)" } ?? ""
        reader.error(keyNode, path, "the pipeline has no component '\(name)'\(guess)")
        return nil
    }
}
