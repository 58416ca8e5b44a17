import DAQCore
import Foundation
import Synchronization
import Yams

/// Checks DAQKit's promise that the same input gives the same output at every clock and batch
/// size: runs a pipeline on the virtual clock and on the replay clock (sped up), each with
/// several batch sizes, and compares what every sink wrote and the files it left.
///
/// Rows are compared bar `uptime`: every sample's kind, step path, fields and (unless it is
/// derived from the run's own start, as a marker's is) its timestamp. CSV files are compared
/// by name and header. The realtime clock needs a live source, so it is tested where one is
/// (a pseudo-terminal scanner, a loopback broker), not here.
public enum ClockInvariance {
    /// One way of running the pipeline.
    public struct Variant: Sendable, CustomStringConvertible {
        /// The run clock.
        public var clock: ClockMode
        /// Samples a source reads per batch.
        public var batchSize: Int

        /// Creates a variant.
        public init(clock: ClockMode, batchSize: Int) {
            self.clock = clock
            self.batchSize = batchSize
        }

        public var description: String { "\(clock.rawValue) clock, batches of \(batchSize)" }
    }

    /// Batch sizes 1, 7 and 4,096 on the virtual and on the replay clock; the first is the reference.
    public static let standardVariants: [Variant] =
        [4096, 1, 7].map { Variant(clock: .virtual, batchSize: $0) }
        + [4096, 1, 7].map { Variant(clock: .replay, batchSize: $0) }

    /// Runs the pipeline in `path` once per variant and returns each difference from the first
    /// variant's output, described for a test failure; empty when every variant agrees.
    /// - Parameters:
    ///   - replaySpeed: the replay pace, high enough that the suite stays fast.
    ///   - environment: `${VAR}` values; sinks' `directory` and `path` are pointed at a scratch
    ///     directory of each run whatever they say.
    /// - Throws: when the pipeline is invalid or cannot start.
    public static func differences(
        pipeline path: String, plugins: [PluginDescriptor], environment: [String: String] = [:],
        overrides: [String] = [], replaySpeed: Double = 50, variants: [Variant] = standardVariants
    ) throws -> [String] {
        let registry = try PluginRegistry(plugins)
        var reference: (Variant, Output)?
        var found: [String] = []
        for variant in variants {
            let output = try run(
                path, variant: variant, registry: registry, environment: environment, overrides: overrides,
                speed: replaySpeed)
            guard let (first, expected) = reference else {
                reference = (variant, output)
                continue
            }
            found += expected.differences(from: output).map { "\(variant) differs from \(first): \($0)" }
        }
        return found
    }

    /// What one run wrote: each sink's rows, and the CSV files' headers by relative path.
    struct Output {
        var rows: [String: [String]] = [:]
        var files: [String: String] = [:]
        var failure: String?

        func differences(from other: Output) -> [String] {
            var out: [String] = []
            if failure != other.failure {
                out.append("the run failed with \(other.failure ?? "nothing"), not \(failure ?? "nothing")")
            }
            for sink in Set(rows.keys).union(other.rows.keys).sorted() {
                let a = rows[sink] ?? []
                let b = other.rows[sink] ?? []
                if a.count != b.count { out.append("\(sink) wrote \(b.count) rows, not \(a.count)") }
                if let i = (0..<min(a.count, b.count)).first(where: { a[$0] != b[$0] }) {
                    out.append("\(sink) row \(i + 1) is\n    \(b[i])\n  not\n    \(a[i])")
                }
            }
            if Set(files.keys) != Set(other.files.keys) {
                out.append("files \(other.files.keys.sorted()), not \(files.keys.sorted())")
            }
            for (name, header) in files where other.files[name] != nil && other.files[name] != header {
                out.append("\(name) has the header \(other.files[name]!), not \(header)")
            }
            return out
        }
    }

    private static func run(
        _ path: String, variant: Variant, registry: PluginRegistry, environment: [String: String],
        overrides: [String], speed: Double
    ) throws -> Output {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("daq-clocks-\(UUID().uuidString)")
            .path
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        var settings = overrides + ["clock=\(variant.clock.rawValue)"]
        if variant.clock == .replay { settings.append("speed=\(speed)") }
        let plain = try PipelineLoader(registry: registry, environment: environment, overrides: settings).load(
            file: path)
        settings += redirect(plain.components, to: scratch)
        let spec = try PipelineLoader(registry: registry, environment: environment, overrides: settings).load(
            file: path)
        let run = try PipelineRun(spec: spec, options: RunOptions(batchSize: variant.batchSize, flushInterval: 0))
        let written = Mutex<[String: [Batch]]>([:])
        for c in spec.components where c.kind == .sink {
            _ = run.observe(component: c.name) { batch in written.withLock { $0[c.name, default: []].append(batch) } }
        }
        try run.start()
        let result = run.wait()
        var output = Output(failure: result.failureLine)
        for (sink, batches) in written.withLock({ $0 }) {
            output.rows[sink] = batches.flatMap { rows(of: $0, runStart: run.clock.startDate) }
        }
        output.files = csvHeaders(under: scratch)
        return output
    }

    /// `sinks.<name>.directory` or `.path` settings that put every sink's files under `scratch`.
    private static func redirect(_ components: [ComponentSpec], to scratch: String) -> [String] {
        components.filter { $0.kind == .sink }.compactMap { c in
            let keys = Set(c.plugin.configKeys.map(\.name))
            if keys.contains("directory") { return "sinks.\(c.name).directory=\(quoted(scratch + "/" + c.name))" }
            guard keys.contains("path"), let node = try? Yams.compose(yaml: c.fingerprint),
                let original = node["path"]?.string, original != "-"
            else { return nil }
            return
                "sinks.\(c.name).path=\(quoted(scratch + "/" + c.name + "/" + (original as NSString).lastPathComponent))"
        }
    }

    private static func quoted(_ s: String) -> String {
        "'" + s.replacingOccurrences(of: "'", with: "''") + "'"
    }

    /// Each sample as text, bar its uptime: kind, step, timestamp (`run+` when it counts from the
    /// run's start, as markers' and windows' do), then its fields by name.
    static func rows(of batch: Batch, runStart: Double) -> [String] {
        (0..<batch.count).map { row in
            let sample = batch[row]
            let derived = abs(sample.timestamp - (runStart + sample.uptime)) < 1e-3
            let time = sample.kind == .marker ? "" : derived ? "run+" : "\(sample.timestamp)"
            let fields = sample.fields.pairs.sorted { $0.0 < $1.0 }.map { "\($0.0)=\($0.1)" }
            return ([sample.kind.name, sample.stepPath, time] + fields).joined(separator: " ")
        }
    }

    /// Every file under `root` but manifests, by path relative to it (a run directory, whose name
    /// holds the start time, shown as `…`), with its first line when it is a CSV file.
    private static func csvHeaders(under root: String) -> [String: String] {
        var out: [String: String] = [:]
        guard let walker = FileManager.default.enumerator(atPath: root) else { return out }
        while let relative = walker.nextObject() as? String {
            var isDirectory: ObjCBool = false
            let full = root + "/" + relative
            guard FileManager.default.fileExists(atPath: full, isDirectory: &isDirectory), !isDirectory.boolValue,
                !relative.hasSuffix("manifest.json")
            else { continue }
            let components = relative.split(separator: "/")
            let name = components.count > 2 ? "\(components[0])/…/\(components.last!)" : relative
            let text = relative.hasSuffix(".csv") ? (try? String(contentsOfFile: full, encoding: .utf8)) : nil
            out[name] = text.map { String($0.prefix { $0 != "\n" }) } ?? ""
        }
        return out
    }
}
