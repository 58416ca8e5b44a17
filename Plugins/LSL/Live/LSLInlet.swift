import DAQCore

/// One liblsl inlet, read without ever waiting: every call passes timeout 0.0, and what liblsl
/// must first fetch in the background (the full info with the channel labels, the first clock
/// offset) is asked for again on the next poll until it is there.
///
/// liblsl reconnects the inlet by itself when an outlet with the same `source_id` comes back
/// (`recover`), keeping what it had received; a stream without a source id is lost instead, and
/// the source resolves it anew.
///
/// # Thread safety
/// Used on the source's stage queue only.
final class LSLInlet {
    private let api: LSLFunctions
    /// The inlet; given up to ``close(context:)``.
    private(set) var handle: OpaquePointer?
    /// The stream as the resolver saw it (no description).
    let resolved: LSLStreamInfo
    /// The full info, with the description, once liblsl has fetched it.
    private(set) var info: LSLStreamInfo?
    /// The clock offset to add to the stream's timestamps (`lsl_time_correction`), once measured;
    /// `nil` again after liblsl reconnected to another machine's clock, until measured anew.
    private(set) var correction: Double?
    /// Every offset measured, with the LSL time it was measured at, for the manifest.
    private(set) var corrections: [(at: Double, offset: Double)] = []
    /// How often liblsl said the clock may have been reset (a reconnection).
    private(set) var clockResets = 0

    // Buffers reused from pull to pull: a batch costs no allocation but its columns.
    private var doubles: [Double] = []
    private var ints: [Int64] = []
    private var strings: [UnsafeMutablePointer<CChar>?] = []
    private var stamps: [Double] = []

    /// Opens an inlet on `resolvedInfo` (a resolver's result, which this takes and destroys)
    /// and asks liblsl to connect, without waiting for it.
    init?(api: LSLFunctions, resolvedInfo: OpaquePointer, bufferSeconds: Int32) {
        self.api = api
        resolved = LSLStreamInfo(resolvedInfo, api: api)
        // recover: 1, so a restarted outlet with the same source id is reconnected to with
        // nothing lost of what had arrived.
        handle = api.createInlet(resolvedInfo, bufferSeconds, 0, 1)
        api.destroyStreamInfo(resolvedInfo)
        guard let handle else { return nil }
        var ec: Int32 = 0
        // With timeout 0.0 this only starts the connection: a timeout error is the expected answer.
        api.openStream(handle, 0.0, &ec)
    }

    /// What a poll found.
    enum Status: Equatable {
        case waiting, ready, lost
    }

    /// Asks for what is still missing (the full info, the clock offset); `.ready` once both are known.
    func poll() -> Status {
        guard let handle else { return .lost }
        var ec: Int32 = 0
        if info == nil {
            if let full = api.fullInfo(handle, 0.0, &ec) {
                info = LSLStreamInfo(full, api: api)
                api.destroyStreamInfo(full)
            } else if ec == LSLErrorCode.lost.rawValue {
                return .lost
            }
        }
        if api.wasClockReset(handle) != 0 {
            clockResets += 1
            correction = nil
        }
        ec = 0
        let offset = api.timeCorrection(handle, 0.0, &ec)
        if ec == LSLErrorCode.none.rawValue {
            // Kept while few: a long run's estimates every few seconds would grow without bound.
            if offset != correction && corrections.count < 1000 { corrections.append((api.localClock(), offset)) }
            correction = offset
        } else if ec == LSLErrorCode.lost.rawValue {
            return .lost
        }
        return info != nil && correction != nil ? .ready : .waiting
    }

    /// Pulls at most `limit` samples that have arrived into `batch`, each stamped with its LSL
    /// time plus the clock offset, mapped to seconds since 1970, and with the run-clock time
    /// that names the same instant (never before `floor`, never after `now`). Returns how many,
    /// or `nil` when the stream is lost.
    func pull(
        limit: Int, into batch: inout Batch, mapping: LSLClockMapping, startDate: Double, floor: inout Double,
        now: Double
    ) -> Int? {
        guard let handle, let info, let correction else { return 0 }
        let channels = max(info.channelCount, 1)
        if stamps.count < limit { stamps = Array(repeating: 0, count: limit) }
        var ec: Int32 = 0
        let n: Int
        switch info.format {
        case .string:
            if strings.count < limit * channels { strings = Array(repeating: nil, count: limit * channels) }
            n =
                Int(api.pullChunkString(handle, &strings, &stamps, UInt(limit * channels), UInt(limit), 0.0, &ec))
                / channels
        case let f where f.isInteger:
            if ints.count < limit * channels { ints = Array(repeating: 0, count: limit * channels) }
            n =
                Int(api.pullChunkInt64(handle, &ints, &stamps, UInt(limit * channels), UInt(limit), 0.0, &ec))
                / channels
        default:
            if doubles.count < limit * channels { doubles = Array(repeating: 0, count: limit * channels) }
            n =
                Int(api.pullChunkDouble(handle, &doubles, &stamps, UInt(limit * channels), UInt(limit), 0.0, &ec))
                / channels
        }
        if n == 0 { return ec == LSLErrorCode.lost.rawValue ? nil : 0 }
        var uptimes = [Double](repeating: 0, count: n)
        var timestamps = [Double](repeating: 0, count: n)
        for i in 0..<n {
            let wall = mapping.wall(stamps[i] + correction)
            timestamps[i] = wall
            floor = min(now, max(floor, wall - startDate))
            uptimes[i] = floor
        }
        let names = info.fieldNames
        if info.isMarkerStream {
            batch.appendRows(uptimes: uptimes, timestamps: timestamps, kinds: Array(repeating: .event, count: n))
        } else {
            batch.appendRows(uptimes: uptimes, timestamps: timestamps)
        }
        for c in 0..<channels {
            switch info.format {
            case .string:
                var texts: [String] = []
                texts.reserveCapacity(n)
                for i in 0..<n {
                    let p = strings[i * channels + c]
                    texts.append(p.map { String(cString: $0) } ?? "")
                    api.destroyString(p)
                    strings[i * channels + c] = nil
                }
                batch.setColumn(Column(name: names[c], strings: texts))
            case let f where f.isInteger:
                var column = [Int64](repeating: 0, count: n)
                for i in 0..<n { column[i] = ints[i * channels + c] }
                batch.setColumn(Column(name: names[c], ints: column))
            default:
                var column = [Double](repeating: 0, count: n)
                for i in 0..<n { column[i] = doubles[i * channels + c] }
                batch.setColumn(Column(name: names[c], doubles: column))
            }
        }
        return n
    }

    /// Gives the inlet up to be destroyed by the caller, off the stage's queue.
    func giveUp() -> LSLHandle? {
        guard let handle else { return nil }
        self.handle = nil
        return LSLHandle(raw: handle, destroy: api.destroyInlet)
    }

    /// Gives the inlet up, destroying it off the stage's queue.
    func close(context: StageContext, then: @escaping @Sendable () -> Void = {}) {
        guard let handle else { return then() }
        self.handle = nil
        context.destroyLSL(handle, with: api.destroyInlet, then: then)
    }
}
