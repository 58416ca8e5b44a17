import DAQCore
import Foundation

/// Which recordings a batch runs, and for each the overrides that point the pipeline at it.
struct BatchPlan {
    struct Item {
        var input: String
        var name: String
        var directory: String
        var overrides: [String]
    }

    var items: [Item]

    /// Expands the inputs and derives each run's overrides from the pipeline's components.
    /// - Throws: a message when no source has a `path`, or several do and `source` is not given.
    init(spec: PipelineSpec, inputs: [String], output: String, source: String?) throws {
        let withPath = spec.components.filter {
            $0.kind == .source && $0.plugin.configKeys.contains { $0.name == "path" }
        }
        let chosen: ComponentSpec
        if let source {
            guard let c = withPath.first(where: { $0.name == source }) else {
                throw BatchError(
                    "no source '\(source)' with a path; sources with a path: \(withPath.map(\.name).joined(separator: ", "))"
                )
            }
            chosen = c
        } else {
            guard withPath.count == 1, let c = withPath.first else {
                throw BatchError(
                    withPath.isEmpty
                        ? "the pipeline has no source that reads a file (no 'path' key)"
                        : "several sources read files (\(withPath.map(\.name).joined(separator: ", "))); name one with --source"
                )
            }
            chosen = c
        }
        let files = Self.expand(inputs)
        var names: [String: Int] = [:]
        for f in files { names[Self.stem(f), default: 0] += 1 }
        items = files.map { file in
            var name = Self.stem(file)
            // Two recordings of the same name in different folders get distinct output folders.
            if names[name]! > 1 { name += "-" + String(Self.hash(file) % 0xFFFF_FFFF, radix: 16) }
            let dir = (output as NSString).appendingPathComponent(name)
            var o = ["clock=virtual", "sources.\(chosen.name).path=\(Self.quoted(file))"]
            for sink in spec.components where sink.kind == .sink {
                let keys = Set(sink.plugin.configKeys.map(\.name))
                if keys.contains("directory") { o.append("sinks.\(sink.name).directory=\(Self.quoted(dir))") }
                if keys.contains("path"), let original = Self.originalPath(sink) {
                    o.append(
                        "sinks.\(sink.name).path=\(Self.quoted((dir as NSString).appendingPathComponent((original as NSString).lastPathComponent)))"
                    )
                }
            }
            return Item(input: file, name: name, directory: dir, overrides: o)
        }
    }

    /// Keeps the items whose path hash falls in share `k` of `n`.
    mutating func keepShard(_ k: Int, of n: Int) {
        items = items.filter { Int(Self.hash($0.input) % UInt64(n)) == k - 1 }
    }

    static func parseShard(_ text: String) -> (Int, Int)? {
        let parts = text.split(separator: "/")
        guard parts.count == 2, let k = Int(parts[0]), let n = Int(parts[1]), n >= 1, (1...n).contains(k) else {
            return nil
        }
        return (k, n)
    }

    /// FNV-1a of the path: stable across runs and machines, unlike Swift's seeded `Hasher`.
    static func hash(_ text: String) -> UInt64 {
        var h: UInt64 = 0xCBF2_9CE4_8422_2325
        for b in text.utf8 {
            h ^= UInt64(b)
            h = h &* 0x100_0000_01B3
        }
        return h
    }

    static func stem(_ path: String) -> String {
        var name = (path as NSString).lastPathComponent
        if name.hasSuffix(".gz") { name = String(name.dropLast(3)) }
        let stem = (name as NSString).deletingPathExtension
        return stem.isEmpty ? name : stem
    }

    /// A YAML double-quoted scalar, so a path with `:` or `#` stays one string.
    static func quoted(_ s: String) -> String {
        "\"" + s.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }

    static func originalPath(_ sink: ComponentSpec) -> String? {
        sink.configuration.value(ofKey: "path") as? String
    }

    /// Paths and glob patterns → existing files, sorted, each once.
    static func expand(_ patterns: [String]) -> [String] {
        var out: [String] = []
        for p in patterns {
            if p.contains(where: { "*?[".contains($0) }) {
                var g = glob_t()
                defer { globfree(&g) }
                if glob(p, 0, nil, &g) == 0 {
                    for i in 0..<Int(g.gl_pathc) { if let c = g.gl_pathv[i] { out.append(String(cString: c)) } }
                }
            } else {
                out.append(p)
            }
        }
        var seen = Set<String>()
        return out.sorted().filter { seen.insert($0).inserted }
    }
}

struct BatchError: Error, CustomStringConvertible {
    var description: String
    init(_ d: String) { description = d }
}
