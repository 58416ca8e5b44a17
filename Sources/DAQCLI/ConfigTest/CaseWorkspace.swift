import DAQBLE
import DAQCore
import Foundation
import Yams

/// The scratch directory of one case: fed inputs under `in/`, sink outputs under `out/SINK/`,
/// what components keep between runs (a spool, a cache) under `state/COMPONENT/`, and the
/// overrides that point the pipeline at them.
struct CaseWorkspace {
    let root: String
    /// `key=value` overrides that redirect sources and sinks into the workspace.
    private(set) var overrides: [String] = []
    /// The JSON Lines file of each component fed with samples.
    private(set) var sampleFiles: [String: String] = [:]
    /// The samples to publish for each `mqtt` source fed with `publish:`.
    private(set) var publications: [String: Publication] = [:]

    /// Samples to publish to the broker a source subscribes to.
    struct Publication {
        var topic: String
        /// JSON Lines, one sample each.
        var path: String
        var count: Int
    }

    init(root: String) throws {
        self.root = root
        try FileManager.default.createDirectory(atPath: "\(root)/out", withIntermediateDirectories: true)
    }

    /// Where sink `name` writes.
    func outputDirectory(_ name: String) -> String { "\(root)/out/\(name)" }

    /// Where a console sink's standard output goes.
    var consoleCapture: String { "\(root)/out/stdout.txt" }

    /// Writes each feed's content and records the overrides or replacements it needs.
    mutating func write(_ feeds: [Feed], pipeline: Node?, environment: [String: String]) throws {
        for feed in feeds {
            let dir = "\(root)/in/\(feed.component)"
            try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
            let original = Self.configured(pipeline, "sources", feed.component, ["path"], environment: environment)
            switch feed.content {
            case .raw(let text, let fileName):
                let path = "\(dir)/\(fileName ?? Self.fileName(of: original) ?? "input.txt")"
                try Data(text.utf8).write(to: URL(fileURLWithPath: path))
                overrides.append("sources.\(feed.component).path=\(Self.quoted(path))")
            case .capture(let events):
                let path = "\(dir)/\(Self.fileName(of: original) ?? "input.btsnoop")"
                let bytes = BTSnoopWriter.capture(events.map { BTSnoopWriter.Event(time: $0.time, bytes: $0.bytes) })
                try Data(bytes).write(to: URL(fileURLWithPath: path))
                overrides.append("sources.\(feed.component).path=\(Self.quoted(path))")
            case .samples(let samples):
                var out: [UInt8] = []
                for s in samples {
                    JSONEncoding.append(.object(s), to: &out)
                    out.append(UInt8(ascii: "\n"))
                }
                let path = "\(dir)/samples.jsonl"
                try Data(out).write(to: URL(fileURLWithPath: path))
                if let topic = feed.publishTopic {
                    publications[feed.component] = Publication(topic: topic, path: path, count: samples.count)
                } else {
                    sampleFiles[feed.component] = path
                }
            }
        }
    }

    /// Points every sink that writes files into `out/SINK/`: `directory` for loggers, `path`
    /// (keeping the file name, whose extension may choose the format) for the others. A sink's
    /// `spool` and a transform's `cache.path` go under `state/`: each case starts without them,
    /// and the project's own folders stay untouched.
    mutating func redirect(_ components: [ComponentSpec], pipeline: Node?, environment: [String: String]) {
        func configured(_ c: ComponentSpec, _ keys: [String]) -> String? {
            Self.configured(pipeline, c.kind.section, c.name, keys, environment: environment)
        }
        for c in components {
            let keys = Set(c.plugin.configKeys.map(\.name))
            let state = "\(root)/state/\(c.name)"
            if keys.contains("spool"), let spool = configured(c, ["spool"]), !spool.isEmpty {
                overrides.append("\(c.kind.section).\(c.name).spool=\(Self.quoted("\(state)/spool"))")
            }
            if keys.contains("cache"), let cache = configured(c, ["cache", "path"]), !cache.isEmpty {
                let name = Self.fileName(of: cache) ?? "cache.jsonl"
                overrides.append("\(c.kind.section).\(c.name).cache.path=\(Self.quoted("\(state)/\(name)"))")
            }
            guard c.kind == .sink else { continue }
            let dir = outputDirectory(c.name)
            if keys.contains("directory") {
                overrides.append("sinks.\(c.name).directory=\(Self.quoted(dir))")
            } else if keys.contains("path") {
                let original = configured(c, ["path"])
                guard original != "-" else { continue }  // standard output: captured like a console
                overrides.append(
                    "sinks.\(c.name).path=\(Self.quoted("\(dir)/\(Self.fileName(of: original) ?? "output")"))")
            }
        }
    }

    /// The files sink `name` wrote, manifests left out, sorted.
    func files(of name: String) -> [String] {
        let dir = outputDirectory(name)
        guard let walker = FileManager.default.enumerator(atPath: dir) else { return [] }
        return walker.compactMap { $0 as? String }.filter { rel in
            var isDir: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: "\(dir)/\(rel)", isDirectory: &isDir)
            return !isDir.boolValue && (rel as NSString).lastPathComponent != "manifest.json"
        }.sorted().map { "\(dir)/\($0)" }
    }

    /// The value at `keys` of component `name` in the pipeline file, `${VAR:-default}` substituted.
    static func configured(
        _ root: Node?, _ section: String, _ name: String, _ keys: [String], environment: [String: String]
    ) -> String? {
        var node = child(child(root, section), name)
        for key in keys { node = child(node, key) }
        guard let text = node?.string else { return nil }
        return EnvironmentSubstitution(environment: environment).substitute(text).0
    }

    /// The value of `key` in a mapping.
    static func child(_ node: Node?, _ key: String) -> Node? {
        node?.mapping?.first { $0.key.string == key }?.value
    }

    static func fileName(of path: String?) -> String? {
        guard let path, !path.isEmpty else { return nil }
        let name = (path as NSString).lastPathComponent
        return name.isEmpty || name == "-" ? nil : name
    }

    /// A YAML double-quoted scalar, so a path is never read as another type.
    static func quoted(_ s: String) -> String {
        "\"" + s.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
}
