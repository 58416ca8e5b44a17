import DAQCore
import Foundation
import Synchronization
import Yams

/// Checks DAQKit's promise that the same input gives the same output at every clock and batch
/// size: runs a pipeline on the virtual clock and on the replay clock (sped up), each with
/// several batch sizes (and on the realtime clock, for a pipeline short enough), and compares
/// what every sink wrote and every file it left, whole.
///
/// Rows are compared bar `uptime`: every sample's kind, step path, timestamp and fields, markers
/// included. Files are compared byte for byte once merged and closed: CSV files after their
/// parts are merged, JSON logs with their bodies. Each run is said to start a day after the one
/// before (``runStart``, on whole seconds), so what is the run's own time by design — a live
/// stream's timestamps (its descriptor says so), a log's start date, the run folder's name — is
/// compared relative to each run's start, and everything else as it is: a stage that stamps the
/// run's clock where its data's belongs (a window over a replayed recording) gives a different
/// row in every run.
///
/// Every component's output is also checked against its stream descriptor at that point: each
/// sample's fields must be declared, with a type that accepts its value.
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

    /// The wall time the first compared run is said to start at, 2030-01-01T00:00:00Z, years
    /// after any recording the tests replay; each next one starts a day later.
    public static let runStart = 1_893_456_000.0

    /// Batch sizes 1, 7 and 4,096 on the virtual and on the replay clock; the first is the reference.
    public static let standardVariants: [Variant] =
        [4096, 1, 7].map { Variant(clock: .virtual, batchSize: $0) }
        + [4096, 1, 7].map { Variant(clock: .replay, batchSize: $0) }

    /// The virtual clock as the reference, then the realtime clock with small and large batches:
    /// for a pipeline whose input lasts a few seconds of its own time.
    public static let realtimeVariants: [Variant] = [
        Variant(clock: .virtual, batchSize: 4096), Variant(clock: .realtime, batchSize: 7),
        Variant(clock: .realtime, batchSize: 4096),
    ]

    /// Runs the pipeline in `path` once per variant and returns each difference from the first
    /// variant's output, and each sample that does not fit its component's descriptor,
    /// described for a test failure; empty when every variant agrees and fits.
    /// - Parameters:
    ///   - replaySpeed: the replay pace, high enough that the suite stays fast.
    ///   - environment: `${VAR}` values; sinks' `directory` and `path` are pointed at a scratch
    ///     directory of each run whatever they say.
    ///   - duration: run-clock seconds each run lasts (`--duration`), so a realtime run of a
    ///     long recording ends soon; every variant is cut alike.
    /// - Throws: when the pipeline is invalid or cannot start.
    public static func differences(
        pipeline path: String, plugins: [PluginDescriptor], environment: [String: String] = [:],
        overrides: [String] = [], replaySpeed: Double = 50, duration: Double? = nil,
        variants: [Variant] = standardVariants
    ) throws -> [String] {
        let registry = try PluginRegistry(plugins)
        var reference: (Variant, Output)?
        var found: [String] = []
        for (k, variant) in variants.enumerated() {
            let output = try run(
                path, variant: variant, start: runStart + Double(k) * 86_400, registry: registry,
                environment: environment, overrides: overrides, speed: replaySpeed, duration: duration)
            found += output.misfits.prefix(5).map { "\(variant): \($0)" }
            guard let (first, expected) = reference else {
                reference = (variant, output)
                continue
            }
            found += expected.differences(from: output).map { "\(variant) differs from \(first): \($0)" }
        }
        return found
    }

    /// What one run wrote: each sink's rows, and every file's normalized text by relative path.
    struct Output {
        var rows: [String: [String]] = [:]
        var files: [String: String] = [:]
        var failure: String?
        /// Samples that do not fit their component's descriptor.
        var misfits: [String] = []

        func differences(from other: Output) -> [String] {
            var out: [String] = []
            if failure != other.failure {
                out.append("the run failed with \(other.failure ?? "nothing"), not \(failure ?? "nothing")")
            }
            for sink in Set(rows.keys).union(other.rows.keys).sorted() {
                out += Self.compare(rows[sink] ?? [], other.rows[sink] ?? [], what: sink, unit: "row")
            }
            if Set(files.keys) != Set(other.files.keys) {
                out.append("files \(other.files.keys.sorted()), not \(files.keys.sorted())")
            }
            for (name, text) in files.sorted(by: { $0.key < $1.key }) {
                guard let theirs = other.files[name], theirs != text else { continue }
                out += Self.compare(
                    text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init),
                    theirs.split(separator: "\n", omittingEmptySubsequences: false).map(String.init), what: name,
                    unit: "line")
            }
            return out
        }

        /// The first line that differs, and a count that differs.
        private static func compare(_ a: [String], _ b: [String], what: String, unit: String) -> [String] {
            var out: [String] = []
            if a.count != b.count { out.append("\(what) has \(b.count) \(unit)s, not \(a.count)") }
            if let i = (0..<min(a.count, b.count)).first(where: { a[$0] != b[$0] }) {
                out.append("\(what) \(unit) \(i + 1) is\n    \(b[i])\n  not\n    \(a[i])")
            }
            return out
        }
    }

    private static func run(
        _ path: String, variant: Variant, start: Double, registry: PluginRegistry, environment: [String: String],
        overrides: [String], speed: Double, duration: Double?
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
        var options = RunOptions(batchSize: variant.batchSize, flushInterval: 0)
        options.duration = duration
        options.startDate = start
        let run = try PipelineRun(spec: spec, options: options)
        let written = Mutex<[String: [Batch]]>([:])
        let misfits = Mutex<[String]>([])
        for c in spec.components {
            _ = run.observe(component: c.name) { batch in
                if c.kind == .sink {
                    written.withLock { $0[c.name, default: []].append(batch) }
                } else if let problem = misfit(batch, of: c.name) {
                    misfits.withLock { $0.append(problem) }
                }
            }
        }
        try run.start()
        let result = run.wait()
        var output = Output(failure: result.failureLine, misfits: misfits.withLock { $0 })
        // By sink and stream: a sink reading several streams takes their batches as they come,
        // which the realtime clock interleaves as it pleases; each stream's rows keep their order.
        for (sink, batches) in written.withLock({ $0 }) {
            for batch in batches {
                output.rows["\(sink) ← \(batch.stream)", default: []] += rows(of: batch, time: RunTime(start: start))
            }
        }
        output.files = files(under: scratch, time: RunTime(start: start))
        return output
    }

    /// The first sample of `batch` whose fields its descriptor does not declare, or declares
    /// with a type that does not accept the value; `nil` when all fit.
    static func misfit(_ batch: Batch, of component: String) -> String? {
        guard let d = batch.descriptor else { return "\(component) emitted a batch without a descriptor" }
        for column in batch.columns {
            guard let field = d.field(column.name) else {
                return "\(component) emitted '\(column.name)', which its descriptor does not declare"
            }
            for row in 0..<batch.count where batch.kinds[row] != .marker && !column.isAbsent(row) {
                let value = column[row]
                if !field.type.accepts(value) {
                    return
                        "\(component)'s '\(column.name)' is declared \(field.type.rawValue) but holds \(value.typeName) \(value)"
                }
            }
        }
        return nil
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

    /// Each sample as text, bar its uptime: kind, step, timestamp, then its fields in order. Times
    /// are relative to the run's start only where the stream's descriptor says they are the
    /// run's (and for markers a sink wove in before any data, whose time is the run's start).
    static func rows(of batch: Batch, time: RunTime) -> [String] {
        let runs = batch.descriptor.map { $0.timeBase == .run }
        return (0..<batch.count).map { row in
            let sample = batch[row]
            let own = runs ?? time.isRunTime(sample.timestamp)
            let fields = sample.fields.pairs.map { "\($0.0)=\(own ? time.value($0.1) : "\($0.1)")" }
            let stamp = own ? time.text(sample.timestamp) : "\(sample.timestamp)"
            return ([sample.kind.name, sample.stepPath, stamp] + fields).joined(separator: " ")
        }
    }

    /// Every file under `root` but manifests, by path relative to it (a run folder, whose name
    /// holds the run's start, shown as `…`), with its text, the run's own times made relative.
    private static func files(under root: String, time: RunTime) -> [String: String] {
        var out: [String: String] = [:]
        guard let walker = FileManager.default.enumerator(atPath: root) else { return out }
        while let relative = walker.nextObject() as? String {
            var isDirectory: ObjCBool = false
            let full = root + "/" + relative
            guard FileManager.default.fileExists(atPath: full, isDirectory: &isDirectory), !isDirectory.boolValue,
                !relative.hasSuffix("manifest.json")
            else { continue }
            let parts = relative.split(separator: "/")
            let name = parts.count > 2 ? "\(parts[0])/…/\(parts.last!)" : relative
            let data = FileManager.default.contents(atPath: full) ?? Data()
            out[name] = String(data: data, encoding: .utf8).map(time.normalized) ?? "\(data.count) bytes, not UTF-8"
        }
        return out
    }
}
