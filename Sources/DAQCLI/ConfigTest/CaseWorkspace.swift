import DAQBLE
import DAQCore
import Foundation
import Yams

/// The scratch directory of one case: fed inputs under `in/`, sink outputs under `out/SINK/`,
/// and the overrides that point the pipeline at them.
struct CaseWorkspace {
    let root: String
    /// `key=value` overrides that redirect sources and sinks into the workspace.
    private(set) var overrides: [String] = []
    /// The JSON Lines file of each component fed with samples.
    private(set) var sampleFiles: [String: String] = [:]

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
            let original = Self.configuredPath(pipeline, "sources", feed.component, environment: environment)
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
                sampleFiles[feed.component] = path
            }
        }
    }

    /// Points every sink that writes files into `out/SINK/`: `directory` for loggers, `path`
    /// (keeping the file name, whose extension may choose the format) for the others.
    mutating func redirect(sinks: [ComponentSpec], pipeline: Node?, environment: [String: String]) {
        for sink in sinks where sink.kind == .sink {
            let keys = Set(sink.plugin.configKeys.map(\.name))
            let dir = outputDirectory(sink.name)
            if keys.contains("directory") {
                overrides.append("sinks.\(sink.name).directory=\(Self.quoted(dir))")
            } else if keys.contains("path") {
                let original = Self.configuredPath(pipeline, "sinks", sink.name, environment: environment)
                guard original != "-" else { continue }  // standard output: captured like a console
                overrides.append(
                    "sinks.\(sink.name).path=\(Self.quoted("\(dir)/\(Self.fileName(of: original) ?? "output")"))")
            }
        }
    }

    /// The files sink `name` wrote, manifests left out, sorted.
    func files(of name: String) -> [String] {
        let dir = outputDirectory(name)
        guard let walker = FileManager.default.enumerator(atPath: dir) else { return [] }
        return walker.compactMap { $0 as? String }.filter { rel in
            var isDir: ObjCBool = false
            FileManager.default.fileExists(atPath: "\(dir)/\(rel)", isDirectory: &isDir)
            return !isDir.boolValue && (rel as NSString).lastPathComponent != "manifest.json"
        }.sorted().map { "\(dir)/\($0)" }
    }

    /// The `path` value component `name` has in the pipeline file, `${VAR:-default}` substituted.
    static func configuredPath(_ root: Node?, _ section: String, _ name: String, environment: [String: String])
        -> String?
    {
        func child(_ node: Node?, _ key: String) -> Node? {
            node?.mapping?.first { $0.key.string == key }?.value
        }
        guard let text = child(child(child(root, section), name), "path")?.string else { return nil }
        return substitute(text, environment)
    }

    /// `${VAR}` and `${VAR:-default}` from `environment`: enough to name the file.
    static func substitute(_ text: String, _ environment: [String: String]) -> String {
        var out = ""
        var rest = Substring(text)
        while let start = rest.range(of: "${"), let end = rest[start.upperBound...].firstIndex(of: "}") {
            out += rest[..<start.lowerBound]
            let body = rest[start.upperBound..<end]
            let parts = body.split(separator: ":-", maxSplits: 1, omittingEmptySubsequences: false)
            let value = environment[String(parts[0])].flatMap { $0.isEmpty ? nil : $0 }
            out += value ?? (parts.count > 1 ? String(parts[1]) : "")
            rest = rest[rest.index(after: end)...]
        }
        return out + rest
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
