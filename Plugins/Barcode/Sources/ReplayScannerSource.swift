import DAQCore

#if canImport(Glibc)
    import Glibc
#endif

/// Replays a scan log through the same session rules as a live scanner, paced by the pipeline
/// clock; or, with `path: -`, takes codes typed or piped on standard input, live.
public final class ReplayScannerSource: SourcePlugin {
    public enum Format: String, ConfigEnum, Sendable { case auto, jsonl, csv, text }

    public struct Configuration: PluginConfiguration {
        @Setting(type: "path", required: "The scan log, or - for lines on standard input (live).") var path: String
        @Setting("auto: by extension (.jsonl, .csv), or per line on stdin; text: one code per line.") var format =
            Format.auto
        @Setting("fail stops at a bad line; skip reports it by file and line.") var onBadRow = OnBadLine.fail
        var session = SessionSettings()

        public init() {}

        public func validate() throws {
            try session.validate()
            if path == "-" && session.control == "-" {
                throw session.$control.issue("standard input already carries the codes; name a FIFO or file")
            }
            if session.control != nil || session.triggerFrom != nil, path != "-" {
                throw (session.control != nil ? session.$control : session.$triggerFrom).issue(
                    "a scan log carries its own triggers as {\"event\": \"trigger\"} lines")
            }
        }
    }

    public enum OnBadLine: String, ConfigEnum, Sendable { case fail, skip }

    public static let typeName = "barcode.replay"
    public static let summary =
        "Replays a scan log (JSON Lines or CSV) through scan sessions; path: - reads codes from stdin."
    public static let output = ScanOutput.output(
        note:
            "scan events; a log's own dates (its first time ≥ 2001), else seconds from its start; path: - on the run clock"
    )

    private let config: Configuration
    private let path: String
    private var reader: LineReader?
    private var sessions: ScanSessions
    private var first: Double?
    private var last = 0.0
    private var watcher: ReadinessWatcher?
    private let watch = SessionWatch()
    private var live: LiveTriggers?
    private var skipped = 0

    public init(configuration: Configuration, context: PluginContext) throws {
        var configuration = configuration
        configuration.session = configuration.session.resolved(in: context)
        config = configuration
        path = context.resolve(configuration.path)
        sessions = ScanSessions(mode: configuration.session.mode, timeout: configuration.session.effectiveTimeout)
    }

    private var isLive: Bool { path == "-" }

    /// Sessions on the log's times: dates when its first time is one (a time before 2001 counts
    /// from the log's start, as in a replayed CSV), else seconds from the start, as a text log,
    /// which has no times, is stamped. Reads the log only to its first timed line.
    public func describe(context: PluginContext) throws -> StreamDescriptor {
        guard !isLive else { return ScanOutput.descriptor(timeBase: .run, origin: StreamOrigin(plugin: Self.typeName)) }
        var timeBase = TimeBase.elapsed
        if format != .text {
            try BinarySniff.requireText(path: path, expected: "a scan log (JSON Lines or CSV text)")
            if let t = try ScanLogRecord.firstTime(path: path, csv: format == .csv), t >= 1e9 { timeBase = .recorded }
        }
        var d = ScanOutput.descriptor(
            timeBase: timeBase, origin: StreamOrigin(plugin: Self.typeName, file: config.path))
        d.metadata["format"] = format.rawValue
        return d
    }

    private var format: Format {
        if config.format != .auto { return config.format }
        if path.hasSuffix(".csv") || path.hasSuffix(".csv.gz") { return .csv }
        if path.hasSuffix(".jsonl") || path.hasSuffix(".jsonl.gz") || path.hasSuffix(".ndjson") { return .jsonl }
        return isLive ? .auto : .jsonl
    }

    public func start(context: StageContext) throws {
        watch.attach(context)
        if isLive {
            _ = fcntl(STDIN_FILENO, F_SETFL, fcntl(STDIN_FILENO, F_GETFL) | O_NONBLOCK)
            reader = LineReader(descriptor: STDIN_FILENO, name: "<stdin>")
            // A thread in poll(2), not a DispatchSourceRead: see ReadinessWatcher.
            let w = ReadinessWatcher(descriptor: STDIN_FILENO) { context.wake() }
            try w.start()
            watcher = w
            sessions.timeBase = context.startDate
            live = try LiveTriggers(settings: config.session, context: context)
        } else {
            try BinarySniff.requireText(path: path, expected: "a scan log (JSON Lines or CSV text)")
            reader = try LineReader(path: path)
        }
    }

    public func read(into batch: inout Batch, limit: Int, context: StageContext) throws -> SourceStatus {
        guard let reader else { return .finished }
        if let live { try live.apply(to: &sessions, now: context.clock.now(), into: &batch, context: context) }
        while batch.count < limit {
            var parsed: (Double?, ScanLogRecord)?
            var bad: (reason: String, raw: String)?
            let result = try reader.nextLine { line in
                guard line.contains(where: { $0 != 0x20 && $0 != 0x09 }) else { return }
                do { parsed = try parse(line, lineNumber: reader.lineNumber) } catch {
                    bad = ("\(error)", String(decoding: line, as: UTF8.self))
                }
            }
            if result == .wouldBlock { break }
            if result == .end {
                endOfInput(into: &batch, context: context)
                // `.finished` only once what closes the last session has left the stage: a
                // stop before then drops it unseen, and only a source still `.more` is told.
                return batch.isEmpty ? .finished : .more
            }
            if let bad {
                let message = "\(isLive ? "<stdin>" : path):\(reader.lineNumber): \(bad.reason)"
                try context.badInput(
                    raw: bad.raw, uptime: batch.uptimes.last ?? (isLive ? context.clock.now() : 0), message: message,
                    pluginSkips: config.onBadRow == .skip, failure: ScanLogRecord.Bad(message: message))
                skipped += 1
                continue
            }
            guard let (time, record) = parsed else { continue }
            apply(record, at: uptime(for: time, context: context), into: &batch, context: context)
        }
        if isLive {
            sessions.expire(upTo: context.clock.now(), into: &batch)
            if let deadline = sessions.deadline { context.wake(atUptime: deadline) }
            if batch.isEmpty {
                watcher?.rearm()  // stdin was read dry
                return .idle
            }
            return .more
        }
        return .more
    }

    /// The input ends: a session still open runs into its timeout, as the scanner would
    /// have it; one without a timeout is cancelled at the input's last time.
    private func endOfInput(into batch: inout Batch, context: StageContext) {
        sessions.expire(upTo: .infinity, into: &batch)
        sessions.cancel(at: isLive ? context.clock.now() : last, reason: "end of input", into: &batch)
        if skipped > 0 { context.warn("skipped \(skipped) bad line(s) in all") }
        reader = nil
    }

    /// The run ended before the input: closes the session the pipeline has open.
    public func cutShort(into batch: inout Batch, at uptime: Double, context: StageContext) throws {
        sessions.cutShort(watched: watch, at: uptime, into: &batch)
    }

    private func parse(_ line: UnsafeBufferPointer<UInt8>, lineNumber: Int) throws -> (Double?, ScanLogRecord)? {
        switch format {
        case .csv:
            if lineNumber == 1, let f = line.first,
                !(f >= 0x30 && f <= 0x39) && f != UInt8(ascii: ".") && f != UInt8(ascii: "-")
            {
                return nil  // the header
            }
            let (t, r) = try ScanLogRecord.csv(line)
            return (t, r)
        case .jsonl:
            return try ScanLogRecord.json(line, timeRequired: !isLive)
        case .text:
            return (nil, .code(text: String(decoding: line, as: UTF8.self), symbology: nil))
        case .auto:
            if line.first == UInt8(ascii: "{") { return try ScanLogRecord.json(line, timeRequired: false) }
            return (nil, .code(text: String(decoding: line, as: UTF8.self), symbology: nil))
        }
    }

    /// A logged time counts from the log's first line; a live line is stamped on arrival.
    private func uptime(for time: Double?, context: StageContext) -> Double {
        guard !isLive, let time else { return context.clock.now() }
        if first == nil {
            first = time
            sessions.timeBase = time
        }
        // Times going back would run the clock backwards: hold them at the latest.
        // Microseconds: what a scan log's times can mean, without the noise of subtracting
        // large epoch seconds.
        last = max(last, ((time - first!) * 1e6).rounded() / 1e6)
        return last
    }

    private func apply(_ record: ScanLogRecord, at t: Double, into batch: inout Batch, context: StageContext) {
        switch record {
        case .code(let text, let symbology):
            var code = ScannedCode(raw: Array(text.utf8))
            if let symbology { code.symbology = symbology }
            if !sessions.deliver(code, at: t, into: &batch) {
                context.warn("\(path): code at \(t) s read with no session open (mode: triggered): ignored")
            }
        case .trigger: sessions.begin(at: t, into: &batch)
        case .cancel: sessions.cancel(at: t, into: &batch)
        case .error(let reason): sessions.fail(reason, at: t, into: &batch)
        }
    }

    public func stop(context: StageContext) {
        watcher?.stop()
        watcher = nil
        live?.close()
        reader = nil
        if isLive { _ = fcntl(STDIN_FILENO, F_SETFL, fcntl(STDIN_FILENO, F_GETFL) & ~O_NONBLOCK) }
    }
}
