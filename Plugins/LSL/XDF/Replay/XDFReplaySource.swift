import DAQCore

/// Replays a LabRecorder `.xdf` file (`.xdf.gz` too): every stream, or those `streams` names,
/// merged in time order.
///
/// Channels become fields by their label (else `ch1` … `chN`); a text stream's samples are
/// `event`s with the text in `marker` (or fields by label when it has several channels); every
/// sample carries its stream's name in `stream_name`. Time stamps are synchronised with the
/// recorded clock offsets as pyxdf 1.17.5's `load_xdf(synchronize_clocks=True,
/// handle_clock_resets=True, dejitter_timestamps=False)` does, clock resets included, and dated
/// as ``XDFTimeOrigin`` says.
///
/// The file is read twice, streaming: once to check every chunk and gather the clock offsets
/// (which correct every sample, so they must all be known first), then once per stream, a chunk
/// at a time, for the samples.
public final class XDFReplaySource: SourcePlugin {
    public struct Configuration: PluginConfiguration {
        @Setting(required: "The .xdf file (LabRecorder's; .xdf.gz too).")
        var path: String
        @Setting(whenUnset: "every stream", "Only the streams of these names, merged in time order.")
        var streams: [String]?
        @Setting(
            "fail: replay what comes before the first damaged chunk, then fail naming it (chunk number, byte offset); skip: report each and read on after the next boundary chunk, as pyxdf does."
        )
        var onBadChunk = XDFBadChunkPolicy.fail
        @Setting("Correct each stream's time stamps with its recorded clock offsets (pyxdf's synchronize_clocks).")
        var synchronizeClocks = true
        @Setting(
            "Look for clock resets among the offsets and correct each segment on its own (pyxdf's handle_clock_resets)."
        )
        var handleClockResets = true

        public init() {}

        public func validate() throws {
            if path.isEmpty { throw $path.issue("must not be empty") }
            if let streams, streams.isEmpty { throw $streams.issue("must name at least one stream, or be left out") }
        }
    }

    public static let typeName = "xdf.replay"
    public static let summary =
        "Replays a LabRecorder .xdf file (.xdf.gz too): its streams merged in time order, clocks synchronised as pyxdf does."

    public static let output = StreamOutput(
        .own,
        [
            OutputField(XDFFieldPlan.streamField, .string, "the name of the XDF stream the sample belongs to"),
            OutputField(
                XDFFieldPlan.markerField, .string, "a one-channel text (marker) stream's text; its samples are events"),
        ],
        note:
            "then each stream's channels by label (else ch1…chN), typed by channel_format, with their units; the nominal rate of a single stream; timestamps: XDF time + the header's unix_offset (logger.xdf), else the header's datetime is the earliest time stamp (LabRecorder; time base recorded), else seconds since the earliest time stamp (elapsed)"
    )

    /// What the file holds and what reading it found, as the run manifest's `inputs` entry has it.
    public internal(set) var recordingSummary: Fields?
    let config: Configuration
    let path: String
    private var state = XDFReplayState.idle

    public init(configuration: Configuration, context: PluginContext) throws {
        config = configuration
        path = context.resolve(configuration.path)
    }

    public func start(context: StageContext) throws {
        let index = try XDFIndex(path: path)
        let chosen = try selected(from: index)
        let damage = index.damage
        let stopsAtDamage = config.onBadChunk == .fail && context.errorPolicy == .stop
        for found in damage {
            if context.errorPolicy == .deadLetter {
                _ = context.reject(
                    raw: "\(path):chunk \(found.chunk)@\(found.offset)", uptime: 0, reason: found.description)
            } else if !stopsAtDamage {
                context.warn("\(found)")
            }
        }
        var cursors: [XDFStreamCursor] = []
        var earliest: Double?
        for (slot, record) in chosen.enumerated() {
            let (sync, keep) = synchronisation(of: record)
            cursors.append(
                try XDFStreamCursor(
                    record: record, slot: slot, path: path, sync: sync,
                    before: stopsAtDamage ? damage.first?.offset : nil, limit: keep))
        }
        // The file's start is its earliest time stamp whichever streams are replayed.
        for record in index.streams {
            guard let first = record.firstTimestamp else { continue }
            var sync = synchronisation(of: record).sync
            let t = sync.map(first)
            earliest = earliest.map { Swift.min($0, t) } ?? t
        }
        let origin = XDFTimeOrigin(header: index.fileHeader, earliest: earliest)
        report(index, chosen: chosen, origin: origin, context: context)
        let plan = XDFFieldPlan(streams: chosen.map(\.info))
        state = .replaying(
            XDFMerge(
                cursors: cursors, plan: plan, origin: origin.offset,
                failure: stopsAtDamage ? damage.first : nil))
    }

    /// The clock correction of a stream, after pyxdf's pylsl#67 guard, and the samples it keeps.
    func synchronisation(of record: XDFStreamRecord) -> (sync: XDFClockSync, keep: Int) {
        guard config.synchronizeClocks else { return (.identity, record.sampleCount) }
        let (keep, dropLast) = XDFCorruptOffset.check(record)
        var times = record.clockTimes
        var values = record.clockValues
        if dropLast {
            times.removeLast()
            values.removeLast()
        }
        return (XDFClockSync(times: times, values: values, resets: config.handleClockResets), keep)
    }

    /// The streams `streams` names, in the file's order; all of them when it names none.
    /// - Throws: naming a stream the file does not have, and those it has.
    func selected(from index: XDFIndex) throws -> [XDFStreamRecord] {
        guard let names = config.streams else { return index.streams }
        let have = Set(index.streams.map(\.info.name))
        if let missing = names.first(where: { !have.contains($0) }) {
            let list = index.streams.map { "'\($0.info.name)'" }.joined(separator: ", ")
            throw XDFFileError(
                path: path,
                problem: "streams: no stream named '\(missing)'; the file has \(list.isEmpty ? "none" : list)")
        }
        let wanted = Set(names)
        return index.streams.filter { wanted.contains($0.info.name) }
    }

    public func read(into batch: inout Batch, limit: Int, context: StageContext) throws -> SourceStatus {
        guard case .replaying(let merge) = state else { return .finished }
        do {
            let status = try merge.read(into: &batch, limit: limit)
            if status == .finished {
                state = .done
                try merge.finish()
            }
            return status
        } catch {
            state = .done
            throw error
        }
    }

    public func stop(context: StageContext) {
        state = .done
    }
}

/// What `xdf.replay` does at a damaged chunk.
public enum XDFBadChunkPolicy: String, ConfigEnum, Sendable {
    case fail, skip
}

/// The replay's lifecycle: its merge exists only while it replays.
enum XDFReplayState {
    case idle
    case replaying(XDFMerge)
    case done
}
