import DAQCore

#if canImport(Glibc)
    import Glibc
#endif

/// Samples from standard input: JSON Lines, CSV with a header, or plain text lines.
///
/// A live source: each line is stamped with the run clock when it arrives. Reading is
/// non-blocking, woken by a ``ReadinessWatcher`` thread parked in `poll(2)`.
public final class StdinSource: SourcePlugin {
    public enum Format: String, ConfigEnum, Sendable {
        case jsonl, csv, text
    }

    public struct Configuration: PluginConfiguration {
        @Setting("How each line is read; text puts the line in `field`.") var format = Format.jsonl
        @Setting("CSV cell delimiter.") var delimiter = ","
        @Setting("For text: the field holding the line.") var field = "line"
        @Setting("fail stops at a bad line; skip reports and skips it.") var onBadRow = OnBadRow.fail
        @Setting(NonFinitePolicy.key.doc) var nan = NonFinitePolicy.fail

        public init() {}

        public func validate() throws {
            if delimiter.utf8.count != 1 && delimiter != "\\t" {
                throw $delimiter.issue("expected one character such as ',', ';' or '\\t'")
            }
        }
    }

    public static let typeName = "stdin"
    public static let summary = "Samples from standard input (JSON Lines, CSV or text), stamped on arrival."
    public static let output = StreamOutput(
        .free, [OutputField("line", .string, "format: text: the line (named by `field`)")],
        note: "JSON Lines and CSV: fields as the lines bring them, stamped on the run clock")

    private let config: Configuration
    private let reader = LineReader(descriptor: STDIN_FILENO, name: "<stdin>")
    private var decoder: RecordDecoder
    private var watcher: ReadinessWatcher?
    private var droppedLines = 0

    public init(configuration: Configuration, context: PluginContext) throws {
        config = configuration
        let d: UInt8 = configuration.delimiter == "\\t" ? 0x09 : configuration.delimiter.utf8.first!
        decoder = RecordDecoder(format: configuration.format == .csv ? .csv : .jsonl, delimiter: d, timeField: nil)
    }

    public func describe(context: PluginContext) throws -> StreamDescriptor {
        // Standard input cannot be read ahead: JSON Lines and CSV fields are declared as they come.
        let fields = config.format == .text ? [FieldDescriptor(config.field, .string)] : []
        return StreamDescriptor(fields: fields, rate: .irregular, timeBase: .run)
    }

    public func start(context: StageContext) throws {
        let flags = fcntl(STDIN_FILENO, F_GETFL)
        _ = fcntl(STDIN_FILENO, F_SETFL, flags | O_NONBLOCK)
        let w = ReadinessWatcher(descriptor: STDIN_FILENO) { context.wake() }
        try w.start()
        watcher = w
    }

    public func read(into batch: inout Batch, limit: Int, context: StageContext) throws -> SourceStatus {
        while batch.count < limit {
            var decoded: (meta: Fields, fields: Fields)?
            var bad: (reason: String, raw: String)?
            var dropped: String?
            let result = try reader.nextLine { line in
                if config.format == .text {
                    decoded = (Fields(), [config.field: .string(String(decoding: line, as: UTF8.self))])
                    return
                }
                do { decoded = try decoder.decode(line) } catch {
                    bad = ("\(error)", String(decoding: line, as: UTF8.self))
                }
                guard let record = decoded else { return }
                switch RecordDecoder.verdict(record, policy: config.nan) {
                case .pass: break
                case .drop(let reason): dropped = reason
                case .bad(let reason): bad = (reason, String(decoding: line, as: UTF8.self))
                }
            }
            switch result {
            case .end:
                if droppedLines > 0 {
                    context.notice("dropped \(droppedLines) line(s) holding NaN or inf in all (nan: skip)")
                }
                return .finished
            case .wouldBlock:
                if batch.isEmpty {
                    watcher?.rearm()
                    return .idle
                }
                return .more
            case .line: break
            }
            if let dropped {
                droppedLines += 1
                if droppedLines <= FileSource.reportLimit {
                    context.warn("dropped <stdin>:\(reader.lineNumber): \(dropped)")
                }
                continue
            }
            if let bad {
                let message = "<stdin>:\(reader.lineNumber): \(bad.reason)"
                try context.badInput(
                    raw: bad.raw, uptime: context.clock.now(), message: message, pluginSkips: config.onBadRow == .skip,
                    failure: RecordError(message: message))
                continue
            }
            guard let decoded else { continue }
            let u = context.clock.now()
            batch.appendRecord(uptime: u, timestamp: context.startDate + u, meta: [:], fields: decoded.fields)
        }
        return .more
    }

    public func stop(context: StageContext) {
        watcher?.stop()
        watcher = nil
        let flags = fcntl(STDIN_FILENO, F_GETFL)
        _ = fcntl(STDIN_FILENO, F_SETFL, flags & ~O_NONBLOCK)
    }
}
