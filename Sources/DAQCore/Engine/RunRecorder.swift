import Foundation
import Synchronization

/// The directories a run writes into and the files in them, and the `manifest.json` that
/// describes each directory: pipeline, config hash, dates, status, stage counters, files.
///
/// A manifest is written when the directory is created (status `running`) and again at the
/// end (`finished`, `failed` or `cancelled`), each time to a temporary file renamed into place.
/// The first one is padded to ``reserve`` bytes: a disk the run fills up still has the blocks
/// the last one is written over (see ``RecordFile``). While the run goes, the recorder holds a
/// lock on each directory, so a directory whose manifest says `running` and whose lock is free
/// was left by a run that was killed (``RunRecord``). A manifest that cannot be written is
/// reported in ``problems``, and the run result.
///
/// # Thread safety
/// All state sits behind one `Mutex`; sinks call it from their own queues.
public final class RunRecorder: Sendable {
    /// One file a sink wrote.
    public struct OutputFile: Sendable, Hashable {
        /// Absolute or working-directory-relative path.
        public var path: String
        /// `json`, `jsonl`, `csv`, …
        public var format: String
        /// Samples written (markers included).
        public var samples: Int
        /// Bytes written.
        public var bytes: Int

        /// Describes one file.
        public init(path: String, format: String, samples: Int, bytes: Int) {
            self.path = path
            self.format = format
            self.samples = samples
            self.bytes = bytes
        }
    }

    private struct State {
        var directories: [String: String] = [:]  // base → run directory
        var files: [String: OutputFile] = [:]
        var order: [String] = []
        var notes: [String] = []
        /// Keeps `notes` to the first few of each kind, and counts the rest.
        var limiter = ReportLimiter()
        /// What sources found about their inputs (device files), keyed by component and path.
        var inputs: [String: Fields] = [:]
        var inputOrder: [String] = []
        /// What transforms found out about the run's data (a calibration fit), by component.
        var results = Fields()
        /// Each component's output descriptor as it stands, by component; in the manifest's `streams`.
        var streams: [String: StreamDescriptor] = [:]
        /// The lock held on each run directory until the final manifest is written.
        var locks: [String: RunDirectoryLock] = [:]
        var problems: [String] = []
    }

    let pipelineName: String
    let configHash: String
    let configFile: String
    let startDate: Double
    /// Hashes the files in the final manifest; `nil` records `null` (see ``ContentHash``).
    let contentHash: ContentHash?
    /// Bytes the `running` manifest takes on disk, so the final one fits on a full disk.
    let reserve: Int
    private let state = Mutex(State())

    init(
        pipelineName: String, configHash: String, configFile: String, startDate: Double, stages: Int = 4,
        contentHash: ContentHash? = nil
    ) {
        self.pipelineName = pipelineName
        self.contentHash = contentHash
        self.configHash = configHash
        self.configFile = configFile
        self.startDate = startDate
        // A final manifest takes about 300 bytes per stage and per file, and a stream descriptor
        // up to a kilobyte per stage; whole 4 KiB blocks.
        reserve = (4096 + 2048 * stages + 4095) / 4096 * 4096
    }

    /// The name of a run directory: `<pipeline>-<UTC start, yyyyMMdd'T'HHmmss'Z'>`.
    public static func directoryName(pipeline: String, start: Double) -> String {
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = TimeZone(identifier: "UTC")
        f.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
        return "\(pipeline)-\(f.string(from: Date(timeIntervalSince1970: start)))"
    }

    /// The run directory under `base`, created on first use; every sink naming the same base
    /// shares it. A directory of that name left by another run gets a `-2`, `-3`… suffix.
    /// - Throws: when the directory cannot be created or its `running` manifest cannot be
    ///   written (a run without a record is not started), or the pipeline name is not a
    ///   single path component; nothing is left behind.
    public func directory(under base: String) throws -> String {
        let key = (base as NSString).standardizingPath
        if let existing = state.withLock({ $0.directories[key] }) { return existing }
        if let problem = PipelineName.problem(pipelineName) {
            throw OutputFileError(
                path: key, reason: "the pipeline name \(PipelineName.quoted(pipelineName)) \(problem)")
        }
        let name = Self.directoryName(pipeline: pipelineName, start: startDate)
        do {
            try FileManager.default.createDirectory(atPath: key, withIntermediateDirectories: true)
        } catch {
            throw OutputFileError(path: key, reason: "cannot create the folder: \(error.localizedDescription)")
        }
        // mkdir itself says whether the name is free: two runs starting in the same second (or
        // a symbolic link planted under the name) never share or follow a directory, as a check
        // before creating would let them.
        var candidate = (key as NSString).appendingPathComponent(name)
        var n = 2
        while mkdir(candidate, 0o755) != 0 {
            guard errno == EEXIST else {
                throw OutputFileError(
                    path: candidate, reason: "cannot create the run directory: \(String(cString: strerror(errno)))")
            }
            candidate = (key as NSString).appendingPathComponent("\(name)-\(n)")
            n += 1
        }
        let lock = RunDirectoryLock.take(candidate)
        do {
            try writeManifest(in: candidate, status: "running", stages: [], endDate: nil, failure: nil, padded: true)
        } catch {
            lock?.release()
            // Only what this call created goes: the directory is new, and held nothing else.
            unlink((candidate as NSString).appendingPathComponent("manifest.json"))
            rmdir(candidate)
            throw OutputFileError(path: candidate, reason: "cannot start the run record: \(error.reason)")
        }
        let (chosen, spare) = state.withLock { s -> (String, RunDirectoryLock?) in
            if let raced = s.directories[key] { return (raced, lock) }
            s.directories[key] = candidate
            if let lock { s.locks[candidate] = lock }
            return (candidate, nil)
        }
        spare?.release()
        return chosen
    }

    /// The run directories created so far.
    public var directories: [String] { state.withLock { Array($0.directories.values).sorted() } }

    /// Every file sinks wrote, in the order they were first recorded.
    public var outputs: [OutputFile] { state.withLock { s in s.order.compactMap { s.files[$0] } } }

    /// Records (or updates) a file a sink writes.
    public func record(_ file: OutputFile) {
        state.withLock { s in
            if s.files[file.path] == nil { s.order.append(file.path) }
            s.files[file.path] = file
        }
    }

    /// Records (or updates) what a source found about a file it reads: format, device, rate, start.
    public func recordInput(component: String, _ fields: Fields) {
        var entry = fields
        entry["component"] = .string(component)
        let key = component + "\u{0}" + (fields["path"]?.stringValue ?? "")
        state.withLock { s in
            if s.inputs[key] == nil { s.inputOrder.append(key) }
            s.inputs[key] = entry
        }
    }

    /// Records (or replaces) what component `component` found out about the run's data, such as
    /// a calibration fit: the manifest's `results` object holds it under the component's name,
    /// so a later run can read it back.
    public func recordResult(component: String, _ fields: Fields) {
        state.withLock { $0.results[component] = .object(fields) }
    }

    /// What each component recorded with ``recordResult(component:_:)``, by component name: what
    /// the run summary reports beside the files (the rows a database sink committed, and where).
    public var results: Fields { state.withLock { $0.results } }

    /// The verdicts of the results recorded so far (``ResultVerdict``), by component name.
    public var verdicts: [ResultVerdict] {
        state.withLock { s in
            zip(s.results.keys, s.results.values).compactMap { component, value in
                guard case .object(let fields) = value else { return nil }
                return ResultVerdict(component: component, fields: fields)
            }.sorted { $0.component < $1.component }
        }
    }

    /// Records what component `component` emits now (its descriptor at the start, then each
    /// change); the manifest's `streams` holds the last.
    public func recordStream(component: String, _ descriptor: StreamDescriptor) {
        state.withLock { $0.streams[component] = descriptor }
    }

    /// Adds a line to every manifest's `notes` (bad rows skipped, units detected); past the
    /// first few of a kind, lines are counted and summarised at the end (``ReportLimiter``).
    public func note(_ text: String) {
        note(component: "", severity: .notice, text)
    }

    /// Adds `message` of `component` to the notes, as `component: message` (a warning as
    /// `component: warning: message`), unless a flood of its kind is being counted instead.
    func note(component: String, severity: ReportLimiter.Severity, _ message: String) {
        state.withLock { s in
            guard s.limiter.admit(component: component, severity: severity, message: message) == .pass else { return }
            s.notes.append(Self.line(component: component, severity: severity, message))
        }
    }

    private static func line(component: String, severity: ReportLimiter.Severity, _ message: String) -> String {
        (component.isEmpty ? "" : component + ": ") + (severity == .warning ? "warning: " : "") + message
    }

    /// What went wrong writing the run's record: each a message naming the file.
    public var problems: [String] { state.withLock { $0.problems } }

    /// Writes the final manifest of every run directory and lets go of their locks.
    /// - Returns: the problems this call met (also kept in ``problems``).
    @discardableResult
    func finish(_ result: RunResult) -> [String] {
        let dirs = state.withLock { Array($0.directories.values).sorted() }
        var problems: [String] = []
        for dir in dirs {
            do {
                try writeManifest(
                    in: dir, status: result.state.rawValue, stages: result.stages, endDate: result.endDate,
                    failure: result.failureLine, padded: false)
            } catch {
                problems.append(error.description)
            }
        }
        let locks = state.withLock { s -> [RunDirectoryLock] in
            s.problems += problems
            defer { s.locks = [:] }
            return Array(s.locks.values)
        }
        for lock in locks { lock.release() }
        return problems
    }

    private func writeManifest(
        in dir: String, status: String, stages: [StageStatistics], endDate: Double?, failure: String?, padded: Bool
    ) throws(RecordFile.Failure) {
        let (files, notes, inputs, results, streams) = state.withLock { s in
            (
                s.order.compactMap { s.files[$0] },
                s.notes
                    + s.limiter.summaries().map {
                        Self.line(component: $0.component, severity: $0.severity, $0.message)
                    },
                s.inputOrder.compactMap { s.inputs[$0] }, s.results, s.streams
            )
        }
        var m = Fields()
        m["pipeline"] = .string(pipelineName)
        m["configFile"] = .string(configFile)
        m["configSHA256"] = configHash.isEmpty ? .null : .string(configHash)
        m["startDate"] = .string(ISODate.string(startDate))
        m["endDate"] = endDate.map { .string(ISODate.string($0)) } ?? .null
        m["status"] = .string(status)
        m["failure"] = failure.map(Value.string) ?? .null
        // A run that went on past bad rows or damaged input "finished", but not cleanly: the
        // count says so without reading every stage (the summary's "finished with N error(s)").
        m["errors"] = .int(Int64(stages.reduce(0) { $0 + $1.errors }))
        m["stages"] = .array(
            stages.map { s in
                var stage: Fields = [
                    "name": .string(s.name), "kind": .string(s.kind.rawValue), "type": .string(s.type),
                    "state": .string(s.state.rawValue), "in": .int(Int64(s.samplesIn)),
                    "out": .int(Int64(s.samplesOut)),
                    "dropped": .int(Int64(s.dropped)), "errors": .int(Int64(s.errors)), "sent": .int(Int64(s.sent)),
                    "delivered": .int(Int64(s.delivered)), "failed": .int(Int64(s.failed)),
                ]
                if s.kind == .sink { stage["queued"] = .int(Int64(s.queued)) }
                if let spooled = s.spooled { stage["spooled"] = .int(Int64(spooled)) }
                return .object(stage)
            })
        m["files"] = .array(
            files.filter { $0.path.hasPrefix(dir + "/") }.map { f in
                let inside = f.path.hasPrefix(dir + "/") ? String(f.path.dropFirst(dir.count + 1)) : f.path
                // At the end, the bytes on disk: a sink that failed may have written more than it reported.
                var bytes = f.bytes
                if status != "running",
                    let size = (try? FileManager.default.attributesOfItem(atPath: f.path))?[.size] as? Int
                {
                    bytes = size
                }
                return .object([
                    "path": .string(inside), "format": .string(f.format), "samples": .int(Int64(f.samples)),
                    "bytes": .int(Int64(bytes)),
                    "sha256": status == "running"
                        ? .null : (contentHash?.hex(ofFile: f.path).map(Value.string) ?? .null),
                ])
            })
        if !inputs.isEmpty { m["inputs"] = .array(inputs.map(Value.object)) }
        if results.count > 0 { m["results"] = .object(results) }
        if !streams.isEmpty {
            m["streams"] = .object(Fields(streams.keys.sorted().map { ($0, .object(streams[$0]!.jsonFields)) }))
        }
        m["notes"] = .array(notes.map(Value.string))
        var bytes: [UInt8] = []
        JSONEncoding.append(.object(m), to: &bytes)
        bytes.append(0x0A)
        let target = (dir as NSString).appendingPathComponent("manifest.json")
        if padded, bytes.count < reserve {
            // JSON allows whitespace after the value: the padding only takes the blocks.
            var reserved = bytes
            reserved.append(contentsOf: repeatElement(0x20, count: reserve - bytes.count - 1))
            reserved.append(0x0A)
            if (try? RecordFile.write(reserved, to: target, inPlace: false)) != nil { return }
        }
        try RecordFile.write(bytes, to: target)
    }

}

/// ISO-8601 dates with milliseconds and offset, as SageResearch logs write them.
public enum ISODate {
    /// `2026-11-22T14:03:07.123+00:00`.
    public static func string(_ secondsSince1970: Double, timeZone: TimeZone = TimeZone(identifier: "UTC")!) -> String {
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = timeZone
        f.dateFormat = "yyyy-MM-dd'T'HH:mm:ss.SSSxxx"
        return f.string(from: Date(timeIntervalSince1970: secondsSince1970))
    }

    /// The zone a recording names: `UTC`, a fixed offset such as `+01:00` or `-05:30`, or an
    /// IANA name; `nil` for anything else.
    public static func zone(_ label: String) -> TimeZone? {
        if label == "UTC" || label == "GMT" { return TimeZone(identifier: "UTC") }
        let bytes = Array(label.utf8)
        if bytes.count == 6, bytes[0] == UInt8(ascii: "+") || bytes[0] == UInt8(ascii: "-"),
            bytes[3] == UInt8(ascii: ":"),
            let h = Int(label.dropFirst().prefix(2)), let m = Int(label.suffix(2))
        {
            return TimeZone(secondsFromGMT: (bytes[0] == UInt8(ascii: "-") ? -1 : 1) * (h * 3600 + m * 60))
        }
        return TimeZone(identifier: label)
    }
}
