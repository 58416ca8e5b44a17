import DAQCore

/// What to do with a line that cannot be decoded.
public enum OnBadRow: String, ConfigEnum, Sendable {
    /// Fail the source, naming the file and line.
    case fail
    /// Skip it, reporting file and line as a warning and counting it.
    case skip
}

/// Streams samples from a JSON Lines or CSV file, in constant memory.
public final class FileSource: SourcePlugin {
    public struct Configuration: PluginConfiguration {
        @Setting(required: "The file to read.") var path: String
        @Setting("auto: '{' starts JSON Lines, else CSV with a header.") var format = RecordDecoder.Format.auto
        @Setting("CSV cell delimiter (one character, or \\t).") var delimiter = ","
        @Setting("Field holding seconds; uptime counts from its first value.") var timeField: String?
        @Setting(type: "double (Hz)", "When records carry no time: sample i is at i / rate.") var rate: Double?
        @Setting(
            "fail stops at a bad line, or at gzip data cut short or damaged; skip reports and skips it, and ends the file at the damage."
        )
        var onBadRow = OnBadRow.fail
        @Setting(NonFinitePolicy.key.doc) var nan = NonFinitePolicy.fail

        public init() {}

        public func validate() throws {
            if path.isEmpty { throw $path.issue("must not be empty") }
            if delimiter.utf8.count != 1 && delimiter != "\\t" {
                throw $delimiter.issue("expected one character such as ',', ';' or '\\t'")
            }
            if let rate, !(rate > 0) { throw $rate.issue("must be greater than 0 Hz") }
        }

        var delimiterByte: UInt8 { delimiter == "\\t" ? 0x09 : delimiter.utf8.first! }
    }

    public static let typeName = "file"
    public static let summary = "Samples from a JSON Lines or CSV file, streamed in constant memory."
    public static let output = StreamOutput(
        .free, note: "a CSV's header columns, or the first JSON line's keys, typed by the first record")

    /// Lines dropped under `nan: skip` reported one by one; the rest are counted.
    static let reportLimit = 20

    private let config: Configuration
    private let path: String
    private var reader: LineReader?
    private var decoder: RecordDecoder
    private var timing: RecordTiming
    /// The failure met after samples of the same read, raised by the next read.
    private var pendingFailure: (any Error)?
    private var droppedLines = 0
    private var timeBaseKnown = false

    public init(configuration: Configuration, context: PluginContext) throws {
        config = configuration
        path = context.resolve(configuration.path)
        decoder = RecordDecoder(
            format: configuration.format, delimiter: configuration.delimiterByte, timeField: configuration.timeField)
        timing = RecordTiming(timeField: configuration.timeField, rate: configuration.rate)
    }

    /// The header's columns (or the first JSON line's keys), typed by the first record, and the
    /// time base its times give. A file that cannot be read twice (a FIFO) is not read here: its
    /// fields come with the data, and its time base with the first record.
    public func describe(context: PluginContext) throws -> StreamDescriptor {
        if RegularFile.isOther(at: path) {
            return StreamDescriptor(
                rate: timing.rate.map(SampleRate.hz) ?? .irregular, timeBase: .run,
                origin: StreamOrigin(file: config.path))
        }
        try BinarySniff.requireText(path: path, expected: "text (JSON Lines or CSV)")
        var d = try RecordDecoder.describe(path: path, decoder: decoder, timing: timing)
        d.origin.file = config.path
        return d
    }

    public func start(context: StageContext) throws {
        try BinarySniff.requireText(path: path, expected: "text (JSON Lines or CSV)")
        reader = try LineReader(path: path)
    }

    public func read(into batch: inout Batch, limit: Int, context: StageContext) throws -> SourceStatus {
        guard let reader else { return .finished }
        if let failure = pendingFailure { throw failure }
        while batch.count < limit {
            var decoded: (meta: Fields, fields: Fields)?
            var bad: (reason: String, raw: String)?
            var dropped: String?
            let result: LineReader.Result
            do {
                result = try reader.nextLine { line in
                    do {
                        decoded = try decoder.decode(line)
                    } catch {
                        bad = ("\(error)", String(decoding: line, as: UTF8.self))
                        return
                    }
                    guard let record = decoded else { return }
                    switch RecordDecoder.verdict(record, policy: config.nan) {
                    case .pass: break
                    case .drop(let reason): dropped = reason
                    case .bad(let reason): bad = (reason, String(decoding: line, as: UTF8.self))
                    }
                }
            } catch let damage as CompressedInputError {
                // Every whole line before the damage was read; the file ends there, or the run fails.
                let place = "\(path):compressed byte \(damage.gzip.offset)"
                let skips = config.onBadRow == .skip
                let uptime = batch.uptimes.last ?? 0
                let handled = try deferring(batchIsEmpty: batch.isEmpty) {
                    try context.badInput(
                        raw: place, uptime: uptime, message: "\(damage)", pluginSkips: skips, failure: damage)
                }
                guard handled else { return .more }
                self.reader = nil
                reportDropped(context)
                return .finished
            }
            if result == .end {
                reportDropped(context)
                return .finished
            }
            if let dropped {
                droppedLines += 1
                if droppedLines <= Self.reportLimit { context.warn("dropped \(path):\(reader.lineNumber): \(dropped)") }
                continue
            }
            if let bad {
                let message = "\(path):\(reader.lineNumber): \(bad.reason)"
                let skips = config.onBadRow == .skip
                let uptime = batch.uptimes.last ?? 0
                let handled = try deferring(batchIsEmpty: batch.isEmpty) {
                    try context.badInput(
                        raw: bad.raw, uptime: uptime, message: message, pluginSkips: skips,
                        failure: RecordError(message: message))
                }
                guard handled else { return .more }
                continue
            }
            guard let decoded else { continue }
            if !timeBaseKnown {
                // Once, with the first record: what its times count from (the file's header was
                // read at describe time, unless the file is a FIFO).
                timeBaseKnown = true
                let base = timing.timeBase(of: decoded)
                if var d = context.outputDescriptor, d.timeBase != base {
                    d.timeBase = base
                    context.declare(d)
                }
            }
            let (u, ts) = timing.place(meta: decoded.meta, fields: decoded.fields, startDate: context.startDate)
            batch.appendRecord(uptime: u, timestamp: ts, meta: decoded.meta, fields: decoded.fields)
        }
        return .more
    }

    /// Runs `handle`; when it throws (the source fails) after this read produced samples, the
    /// failure waits for the next read, so those samples go out first.
    /// - Returns: `false` when the failure was deferred.
    private func deferring(batchIsEmpty: Bool, _ handle: () throws -> Void) throws -> Bool {
        do {
            try handle()
            return true
        } catch {
            if batchIsEmpty { throw error }
            pendingFailure = error
            return false
        }
    }

    private func reportDropped(_ context: StageContext) {
        if droppedLines > 0 { context.notice("dropped \(droppedLines) line(s) holding NaN or inf in all (nan: skip)") }
    }

    public func stop(context: StageContext) {
        reader = nil
    }
}

/// A record that cannot be read, with its file and line.
struct RecordError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}
