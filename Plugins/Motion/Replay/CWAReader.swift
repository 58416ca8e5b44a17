import DAQCore
import Foundation

/// Axivity AX3 / AX6 `.cwa` recordings (and `.cwa.gz`), read as the format's `cwa.h` describes:
/// a 1024-byte header, then 512-byte data sectors streamed one at a time through a small
/// read-ahead buffer, so a week-long file reads in constant memory.
///
/// Each sector carries a timestamp valid at one of its samples; sample times are spread between
/// consecutive sectors' timestamps, as omconvert does, rather than laid out at the nominal rate,
/// and turned from the device's local clock to UTC with `time_zone:` (UTC when not given). A
/// sector that fails its checksum or is no data sector is reported with its number and byte
/// offset, counted and skipped, and the gap it leaves is reported; the rest is read.
final class CWAReader: RecordingReader {
    /// Whether `path` is (or claims to be) a .cwa: named so, or starting with the "MD" header, gzip or not.
    static func matches(path: String) -> Bool {
        let lower = path.lowercased()
        // Named .cwa but not one: still taken as one, so the message says what is wrong with it.
        if lower.hasSuffix(".cwa") || lower.hasSuffix(".cwa.gz") { return true }
        guard let reader = try? ByteReader(path: path) else { return false }
        var bytes: [UInt8] = []
        guard let n = try? reader.read(into: &bytes, count: 4), n == 4 else { return false }
        return CWAHeader.matches(bytes)
    }

    let extraNames: [String] = []
    let channelNames: [String]
    let readsAroundDamage = true
    private(set) var notes: [String] = []
    var info: RecordingInfo? { recording }

    private let path: String
    private let input: ByteReader
    private var recording: RecordingInfo
    private var clock: DeviceClock
    private let period: Double
    private let gyroRange: Double
    private let gyro: Bool

    /// Sectors read ahead: `chunk[chunkStart..<chunkEnd]` are not yet decoded.
    private var chunk = [UInt8](repeating: 0, count: 64 * CWASector.size)
    private var chunkStart = 0
    private var chunkEnd = 0
    private var inputEnded = false
    private var sectorsRead = 0
    /// numAxesBPS and rate code of the first good sector: a sector that differs is not of this recording.
    private var reference: (format: UInt8, rate: UInt8)?

    /// The sector being emitted, and the one after it once read (its anchor fixes the spacing).
    private var current = CWASector()
    private var next = CWASector()
    private var hasCurrent = false
    private var hasNext = false
    private var currentTime = 0.0
    private var nextTime = 0.0
    /// Whether what follows `current` has been read, and whether it continues `current`'s run.
    private var resolved = false
    private var breakAfter = false
    /// Seconds per sample before `current`'s anchor (from the previous sector) and after it.
    private var slopeBefore: Double?
    private var slopeAfter = 0.0
    /// Index of `current`'s first sample in its run of contiguous sectors.
    private var first = 0
    private var cursor = 0
    /// An error met while reading ahead, raised once `current` is out.
    private var pending: (any Error)?
    private var ended = false
    /// Where samples would have gone on after a break, to report the gap once the next comes.
    private var gapFrom: Double?
    private var lastTime: Double?
    private var started = false

    /// Opens `path` and reads its header and first sectors.
    /// - Parameter timeZone: the zone of the device clock (`time_zone:`); UTC when `nil`.
    /// - Throws: ``DeviceFileError`` naming the file and byte offset when it is no .cwa or is cut
    ///   short in its header; ``OutputFileError`` when it cannot be read.
    init(path: String, timeZone: TimeZone?) throws {
        self.path = path
        input = try ByteReader(path: path)
        var bytes: [UInt8] = []
        let n = try input.read(into: &bytes, count: CWAHeader.size)
        guard let header = CWAHeader(Array(bytes[..<n])) else {
            if n >= 4 && CWAHeader.matches(bytes) {
                throw DeviceFileError(
                    path: path,
                    reason: "the file ends at byte \(n), inside its \(CWAHeader.size)-byte header (it is cut short)")
            }
            let line = bytes[..<n].prefix { $0 != 0x0A }
            throw DeviceFileError(
                path: path,
                reason:
                    "not an Axivity .cwa file: byte 0 does not start an 'MD' header of \(CWAHeader.size) bytes (\(n == 0 ? "the file is empty" : RecordingSniff.describe(String(decoding: line, as: UTF8.self))))"
            )
        }
        var clock: DeviceClock
        if let timeZone {
            clock = DeviceClock(timeZone: timeZone)
            notes.append("device clock taken as \(clock.label) time (time_zone)")
        } else {
            clock = DeviceClock(timeZone: TimeZone(identifier: "UTC")!)
            notes.append(
                ".cwa times are the device's local clock and the file names no zone: taken as UTC; set time_zone to say where it was"
            )
        }
        period = 1 / header.rate
        gyroRange = header.gyroRange ?? 2000
        recording = RecordingInfo(format: "cwa")
        recording.device = header.device
        recording.serial = String(header.deviceId)
        recording.nominalRate = header.rate
        recording.timeZone = clock.label
        recording.extra.append(("session", String(header.sessionId)))
        recording.extra.append(("range", "±\(header.range) g"))
        recording.extra.append(("firmware", String(header.firmware)))
        if !header.annotations.isEmpty {
            recording.extra.append(("metadata", header.annotations.map { "\($0.0)=\($0.1)" }.joined(separator: "; ")))
        }

        // The first good sector says whether there is a gyroscope, before any row is asked for.
        var ahead = [UInt8](repeating: 0, count: 64 * CWASector.size)
        let read = try input.read(into: &ahead, count: ahead.count)
        var probe = CWASector()
        var found = false
        var at = 0
        let range = header.gyroRange ?? 2000
        while !found && at + CWASector.size <= read {
            found = ahead.withUnsafeBytes { probe.decode($0.baseAddress! + at, gyroRange: range) } == nil
            at += CWASector.size
        }
        chunk = ahead
        chunkEnd = read
        inputEnded = read < ahead.count
        gyro = found ? probe.hasGyro : header.device == "AX6" && header.gyroRange != nil
        channelNames = (gyro ? ["gx", "gy", "gz"] : []) + ["temperature", "light"]
        if found {
            recording.start = clock.utc(local: Double(probe.local)) + probe.fraction - Double(probe.anchor) * period
            if probe.format >> 4 == 9 { notes.append("the magnetometer's axes are not read") }
        }
        self.clock = clock
        if gyro { notes.append("gyroscope gx, gy, gz in °/s (±\(TimeUnit.short(header.gyroRange ?? 2000)) °/s)") }
        notes.append("temperature in °C and light in raw sensor units, one reading per sector held for its samples")
    }

    func read(into rows: inout RowBuffer, limit: Int) throws -> Bool {
        let target = rows.count + limit
        if rows.channels.isEmpty { rows.channels = Array(repeating: [], count: channelNames.count) }
        while rows.count < target {
            if hasCurrent {
                if !resolved { resolve() }
                emit(into: &rows, upTo: target)
                if cursor == current.count { advance() }
                continue
            }
            if let error = pending {
                pending = nil
                throw error
            }
            if ended { return false }
            switch try readSector(into: &current) {
            case .good:
                hasCurrent = true
                currentTime = anchorTime(current)
                first = 0
                slopeBefore = nil
            case .bad(let bad): throw bad
            case .end(let bad):
                ended = true
                if let bad { throw bad }
            }
        }
        return true
    }

    private func anchorTime(_ s: CWASector) -> Double { clock.utc(local: Double(s.local)) + s.fraction }

    /// Reads the sector after `current`: it continues the run when its sequence number follows,
    /// its session is the same and its timestamp gives a spacing near the nominal one.
    private func resolve() {
        resolved = true
        breakAfter = true
        let outcome: SectorOutcome
        do {
            outcome = try readSector(into: &next)
        } catch {
            pending = error
            ended = true
            return
        }
        switch outcome {
        case .good:
            hasNext = true
            nextTime = anchorTime(next)
            let samples = current.count - current.anchor + next.anchor
            guard next.sequence == current.sequence &+ 1, next.session == current.session, samples >= 0 else { return }
            if samples == 0 {
                // Whole-second stamps of older firmware: two sectors can name the same sample and
                // second, which says nothing new about the spacing.
                guard nextTime == currentTime else { return }
                slopeAfter = slopeBefore ?? period
                breakAfter = false
                return
            }
            let slope = (nextTime - currentTime) / Double(samples)
            guard slope > period / 2 && slope < period * 2 else { return }
            slopeAfter = slope
            breakAfter = false
        case .bad(let bad): pending = bad
        case .end(let bad):
            pending = bad
            ended = true
        }
    }

    /// Appends `current`'s samples from `cursor`, timed on the line through its anchor.
    private func emit(into rows: inout RowBuffer, upTo target: Int) {
        let end = min(current.count, cursor + target - rows.count)
        guard end > cursor else { return }
        let after = breakAfter ? (slopeBefore ?? period) : slopeAfter
        let before = slopeBefore ?? after
        let t0 = currentTime
        let anchor = current.anchor
        if cursor == 0, let from = gapFrom {
            let start = t0 - Double(anchor) * (0 < anchor ? before : after)
            if start - from > period / 2 { recording.findings.gaps.append((from, start - from)) }
            gapFrom = nil
        }
        let base = rows.times.count
        for k in cursor..<end {
            rows.times.append(t0 + Double(k - anchor) * (k < anchor ? before : after))
        }
        if !started {
            started = true
            recording.start = rows.times[base]
        }
        rows.xs.append(contentsOf: current.xs[cursor..<end])
        rows.ys.append(contentsOf: current.ys[cursor..<end])
        rows.zs.append(contentsOf: current.zs[cursor..<end])
        rows.lines.append(contentsOf: repeatElement(current.number, count: end - cursor))
        var c = 0
        if gyro {
            rows.channels[0].append(contentsOf: current.gx[cursor..<end])
            rows.channels[1].append(contentsOf: current.gy[cursor..<end])
            rows.channels[2].append(contentsOf: current.gz[cursor..<end])
            c = 3
        }
        rows.channels[c].append(contentsOf: repeatElement(current.temperature, count: end - cursor))
        rows.channels[c + 1].append(contentsOf: repeatElement(current.light, count: end - cursor))
        lastTime = rows.times[rows.times.count - 1]
        cursor = end
    }

    /// Moves on from a fully emitted `current` to the sector read after it.
    private func advance() {
        if breakAfter {
            if let last = lastTime { gapFrom = last + (slopeBefore ?? period) }
            slopeBefore = nil
            first = 0
        } else {
            slopeBefore = slopeAfter
            first += current.count
        }
        swap(&current, &next)
        currentTime = nextTime
        hasCurrent = hasNext
        hasNext = false
        resolved = false
        cursor = 0
    }

    private enum SectorOutcome {
        case good
        case bad(BadRow)
        /// The end of the file, with what is wrong when it ends inside a sector.
        case end(BadRow?)
    }

    /// Decodes the next sector into `s`.
    /// - Throws: what reading the file throws (a gzip stream cut short, an I/O error).
    private func readSector(into s: inout CWASector) throws -> SectorOutcome {
        if chunkEnd - chunkStart < CWASector.size { try refill() }
        let available = chunkEnd - chunkStart
        let number = sectorsRead + 1
        let offset = Int64(CWAHeader.size) + Int64(sectorsRead) * Int64(CWASector.size)
        if available == 0 { return .end(nil) }
        sectorsRead += 1
        if available < CWASector.size {
            chunkStart = chunkEnd
            recording.findings.corruptBlocks += 1
            return .end(
                BadRow(
                    path: path, line: number,
                    message: "sector \(number) at byte \(offset) is cut short: the file ends \(available) bytes into it"
                ))
        }
        let at = chunkStart
        let range = gyroRange
        let problem = chunk.withUnsafeBytes { s.decode($0.baseAddress! + at, gyroRange: range) }
        chunkStart += CWASector.size
        s.number = number
        s.offset = offset
        var message = problem
        if problem == nil {
            if let r = reference {
                if r.format != s.format || r.rate != s.rateCode {
                    message = "changes the recording's sample format or rate"
                }
            } else {
                reference = (s.format, s.rateCode)
            }
        }
        guard let message else { return .good }
        recording.findings.corruptBlocks += 1
        return .bad(BadRow(path: path, line: number, message: "sector \(number) at byte \(offset) \(message)"))
    }

    /// Reads more sectors, keeping the undecoded bytes.
    private func refill() throws {
        let keep = chunkEnd - chunkStart
        if keep > 0 && chunkStart > 0 {
            let from = chunkStart
            chunk.withUnsafeMutableBytes { $0.baseAddress!.copyMemory(from: $0.baseAddress! + from, byteCount: keep) }
        }
        chunkStart = 0
        chunkEnd = keep
        guard !inputEnded else { return }
        let want = chunk.count - chunkEnd
        let n = try input.read(into: &chunk, at: chunkEnd, count: want)
        if n < want { inputEnded = true }
        chunkEnd += n
    }
}
