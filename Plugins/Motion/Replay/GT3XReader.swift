import DAQCore
import Foundation

/// ActiGraph `.gt3x` recordings (GT3X+, wGT3X+, wGT3X-BT, ActiSleep, GT9X): a zip of
/// `info.txt` and `log.bin`, read as the GT3X-File-Format specification describes, streaming
/// log.bin record by record in constant memory.
///
/// Samples come from ACTIVITY (12-bit, Y X Z) and ACTIVITY2 (int16, X Y Z) records, one second
/// each, at `t + i / rate`; the scale is PARAMETERS' ACCEL_SCALE, else info.txt's, else the
/// serial number's. Seconds the device slept through (idle sleep) or lost are filled with the
/// last sample, as ActiLife does, and flagged, as far as ``GT3XFillBound`` allows: a longer jump
/// is a reported gap, so a file never comes out larger than its own info.txt says it can.
/// Times are device local time turned into UTC with info.txt's zone or `time_zone:`.
///
/// The old NHANES layout (GT3X+ up to firmware 2.5.0: `activity.bin`, no log.bin) is read too,
/// as pygt3x and GGIR read it: every sample at the nominal rate from info.txt's start.
final class GT3XReader: RecordingReader {
    private let path: String
    /// log.bin's records; `nil` for the NHANES layout, whose samples come from ``activityBin``.
    private let log: GT3XLog?
    private let activityBin: GT3XActivityBin?
    /// The NHANES layout's start, device local time; its samples' counts, reused per read.
    private var binStart = 0.0
    private var binCounts: [(x: Int16, y: Int16, z: Int16)] = []
    private var clock: DeviceClock
    private let rate: Int
    private var scale: Double
    private var recording: RecordingInfo
    private(set) var notes: [String] = []
    var extraNames: [String] { [] }
    var info: RecordingInfo? { recording }

    /// The record being emitted: where its payload is, its kind, and how far it got.
    private var pending:
        (payload: UnsafeRawBufferPointer, packed: Bool, next: Int, count: Int, utc: Double, number: Int)?
    /// Filled samples still to emit: from local second `second`, sample `index` of it, until local second `until`.
    private var fill: (second: Int64, index: Int, until: Int64, number: Int)?
    /// The local second the next activity record should carry.
    private var expected: Int64?
    private var last: (x: Double, y: Double, z: Double)?
    private var idleSince: Int64?
    private var latest: Int64 = 0
    /// Whether a damaged record came since the last activity record: the gap it leaves is a
    /// gap, not a second the device slept through.
    private var afterCorrupt = false
    private var finished = false
    /// Which jumps are filled and which are gaps.
    private var fillBound: GT3XFillBound

    /// Whether `path` is a zip that is (or claims to be) a .gt3x: it holds `info.txt`, or is named so.
    static func matches(path: String) -> Bool {
        // A .gt3x that is no zip is still taken as one, so its message says what is wrong with it.
        if path.lowercased().hasSuffix(".gt3x") { return true }
        guard ZipArchive.looksLikeZip(path: path) else { return false }
        return (try? ZipArchive(path: path))?.entry(named: "info.txt") != nil
    }

    /// Opens `path`, reads info.txt and the records before the first sample (for the scale).
    /// - Parameter timeZone: the zone of the device clock, overriding info.txt's.
    /// - Throws: ``DeviceFileError`` (or the zip's ``OutputFileError``) naming the file: not a zip, the NHANES layout, no log.bin
    ///   or info.txt, no sample rate.
    init(path: String, timeZone: TimeZone?) throws {
        self.path = path
        let zip = try ZipArchive(path: path)
        if zip.centralDirectoryMissing {
            notes.append("the zip has no central directory (the file was cut short?); its members are read in order")
        }
        let logEntry = zip.entry(named: "log.bin")
        let binEntry = logEntry == nil ? zip.entry(named: "activity.bin") : nil
        guard logEntry != nil || binEntry != nil else {
            let names = zip.entries.prefix(5).map { PrintableText.escaped($0.name) }.joined(separator: ", ")
            throw DeviceFileError(
                path: path,
                reason:
                    "a zip without log.bin or activity.bin (it holds \(names.isEmpty ? "nothing" : names)) is not an ActiGraph .gt3x"
            )
        }
        guard let infoEntry = zip.entry(named: "info.txt") else {
            throw DeviceFileError(
                path: path, reason: "the .gt3x has no info.txt, so its sample rate and start are unknown")
        }
        let text = try zip.contents(of: infoEntry, limit: 1 << 20)
        let file = GT3XInfo(
            text: String(
                decoding: text.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(text.dropFirst(3)) : text, as: UTF8.self))
        log = try logEntry.map { GT3XLog(stream: try ZipEntryStream(archive: zip, entry: $0)) }
        activityBin = try binEntry.map { GT3XActivityBin(stream: try ZipEntryStream(archive: zip, entry: $0)) }
        if activityBin != nil {
            // No record carries a time: every sample's comes from the start and the rate.
            guard let start = file.startLocal else {
                throw DeviceFileError(
                    path: path,
                    reason: "the NHANES-layout .gt3x's info.txt has no Start Date, so its samples' times are unknown")
            }
            binStart = start
            notes.append(
                "the old NHANES layout (activity.bin): every sample at the nominal rate from info.txt's start; the layout records no idle sleep or lost seconds"
            )
        }

        if let timeZone {
            clock = DeviceClock(.named(timeZone))
            notes.append("device clock taken as \(timeZone.identifier) time (time_zone)")
        } else if let offset = file.utcOffset {
            clock = DeviceClock(.fixed(offset))
        } else {
            clock = DeviceClock(.fixed(0))
            notes.append(
                "info.txt names no time zone: the device clock is taken as UTC; set time_zone to say which it was")
        }
        recording = RecordingInfo(format: "gt3x")
        recording.device = file.deviceType
        recording.serial = file.serial
        recording.timeZone = clock.name
        if let firmware = file.firmware { recording.extra.append(("firmware", firmware)) }
        if activityBin != nil { recording.extra.append(("layout", "NHANES activity.bin")) }
        if let start = file.startLocal {
            recording.start = Double(clock.utc(Int64(start.rounded(.down)))) + start - start.rounded(.down)
        }

        // PARAMETERS comes first in log.bin: its rate and scale are wanted before the first sample.
        let parameters: (scale: Double?, rate: Int?) =
            try log?.peek { r in r.type == 0x15 ? Self.parameters(r.payload) : nil } ?? (nil, nil)
        // info.txt's rate is text: `inf` or `1e300` must not reach `Int` unchecked. The bound is
        // PARAMETERS' own, far above any ActiGraph's 100 Hz.
        var infoRate: Int?
        if let r = file.rate {
            do throws(InputRangeError) {
                infoRate = try Int(checked: r, "info.txt's Sample Rate", in: 1...10_000)
            } catch {
                throw DeviceFileError(path: path, reason: error.description)
            }
        }
        guard let rate = infoRate ?? parameters.rate, rate > 0 else {
            throw DeviceFileError(path: path, reason: "neither info.txt nor a PARAMETERS record gives the sample rate")
        }
        self.rate = rate
        fillBound = GT3XFillBound(endLocal: file.endLocal)
        recording.nominalRate = Double(rate)
        if let s = parameters.scale {
            scale = s
            notes.append("\(TimeUnit.short(s)) counts per g, from the PARAMETERS record")
        } else if let s = file.scale {
            scale = s
            notes.append("\(TimeUnit.short(s)) counts per g, from info.txt")
        } else if let s = GT3XInfo.scale(forSerial: file.serial) {
            scale = s
            notes.append(
                "\(TimeUnit.short(s)) counts per g, as the specification gives for serial numbers starting \(file.serial!.prefix(3))"
            )
        } else {
            scale = 341
            notes.append(
                "the scale is not in the file and serial '\(file.serial ?? "")' does not imply one: 341 counts per g assumed (±6 g devices)"
            )
        }
    }

    /// ACCEL_SCALE (address 0, id 55, a float) and SAMPLE_RATE (address 1, id 10) of a PARAMETERS payload.
    static func parameters(_ payload: UnsafeRawBufferPointer) -> (scale: Double?, rate: Int?) {
        var result: (scale: Double?, rate: Int?) = (nil, nil)
        var i = 0
        while i + 8 <= payload.count {
            let key = UInt32(littleEndian: payload.loadUnaligned(fromByteOffset: i, as: UInt32.self))
            let value = UInt32(littleEndian: payload.loadUnaligned(fromByteOffset: i + 4, as: UInt32.self))
            switch (key & 0xFFFF, key >> 16) {
            case (0, 55):
                let s = sspDecode(value)
                if s > 0 && s.isFinite { result.scale = s }
            case (1, 10): if value > 0 && value <= 10_000 { result.rate = Int(value) }
            default: break
            }
            i += 8
        }
        return result
    }

    /// The PARAMETERS float: a 24-bit two's complement fraction of 2^23 and an 8-bit exponent.
    static func sspDecode(_ v: UInt32) -> Double {
        if v == 0x007F_FFFF { return .greatestFiniteMagnitude }
        if v == 0x0080_0000 { return -.greatestFiniteMagnitude }
        let exponent = Int(Int8(bitPattern: UInt8(v >> 24)))
        let fraction = Int32(bitPattern: (v & 0x00FF_FFFF) << 8) >> 8
        return Double(fraction) / 8_388_608 * pow(2, Double(exponent))
    }

    private func nextItem() throws -> GT3XLog.Item {
        guard let log else { return .end }
        do {
            return try log.next()
        } catch let e as OutputFileError {
            throw DeviceFileError(path: e.path, reason: e.reason + " (record \(log.number + 1) of log.bin)")
        }
    }

    func read(into rows: inout RowBuffer, limit: Int) throws -> Bool {
        if let activityBin { return try read(activityBin, into: &rows, limit: limit) }
        let target = rows.count + limit
        while rows.count < target {
            if fill != nil {
                emitFill(into: &rows, upTo: target)
                continue
            }
            if pending != nil {
                emitRecord(into: &rows, upTo: target)
                continue
            }
            if finished { return false }
            switch try nextItem() {
            case .record(let r): try take(r)
            case .corrupt(let number, let offset, let reason):
                recording.findings.corruptBlocks += 1
                afterCorrupt = true
                throw BadRow(
                    path: path, line: number, message: "log.bin record \(number) at byte \(offset) \(reason); skipped")
            case .end:
                finished = true
                if idleSince != nil, let e = expected, latest > e {
                    // Asleep to the end: filled up to the last record's second, as pygt3x does.
                    startFill(from: e, until: latest, number: log?.number ?? 0, asleep: true)
                }
            }
        }
        return !(finished && fill == nil && pending == nil)
    }

    private func take(_ r: GT3XLog.Record) throws {
        let t = Int64(r.timestamp)
        latest = max(latest, t)
        switch r.type {
        case 0x00, 0x1A:
            // A 1-byte activity record marks a USB connection, not samples.
            guard r.payload.count > 1 else { return }
            let packed = r.type == 0x00
            let count = packed ? r.payload.count * 8 / 36 : r.payload.count / 6
            guard count > 0 else { return }
            fillBound.record(at: t)
            if let e = expected, t > e {
                if afterCorrupt && idleSince == nil {
                    gap(from: e, until: t)
                } else {
                    startFill(from: e, until: t, number: r.number, asleep: idleSince != nil)
                }
            }
            expected = max(expected ?? t, t + 1)
            idleSince = nil
            afterCorrupt = false
            pending = (r.payload, packed, 0, count, Double(clock.utc(t)), r.number)
        case 0x03 where r.payload.count >= 1:
            if r.payload[0] == 0x08 {
                idleSince = t
            } else if r.payload[0] == 0x09 {
                // Awake again: the seconds slept through are filled now, as pygt3x does too.
                let asleep = idleSince != nil
                idleSince = nil
                if let e = expected, t > e {
                    startFill(from: e, until: t, number: r.number, asleep: asleep)
                    expected = t
                }
            }
        case 0x15:
            if let s = Self.parameters(r.payload).scale { scale = s }
        default: break
        }
    }

    /// The NHANES layout's next samples: sample `n` at the start plus `n / rate`, local time.
    private func read(_ bin: GT3XActivityBin, into rows: inout RowBuffer, limit: Int) throws -> Bool {
        let first = bin.count
        binCounts.removeAll(keepingCapacity: true)
        let more = try bin.next(limit: limit, into: &binCounts)
        let period = 1 / Double(rate)
        let k = scale
        // The zone's offset is looked up once a second, not once a sample.
        var second = Int64.min
        var utcSecond = 0.0
        for (i, c) in binCounts.enumerated() {
            let n = first + i
            let local = binStart + Double(n / rate) + Double(n % rate) * period
            let whole = local.rounded(.down)
            if Int64(whole) != second {
                second = Int64(whole)
                utcSecond = Double(clock.utc(second))
            }
            rows.append(
                time: utcSecond + (local - whole), x: Double(c.x) / k, y: Double(c.y) / k, z: Double(c.z) / k,
                line: n / rate + 1)
        }
        return more
    }

    /// Fills `from..<until` with the last sample when the device could have slept (or lost)
    /// that long; a longer jump is a gap (``GT3XFillBound``).
    private func startFill(from: Int64, until: Int64, number: Int, asleep: Bool) {
        guard last != nil, until > from else { return }
        guard fillBound.fills(from: from, until: until, asleep: asleep) else {
            gap(from: from, until: until)
            return
        }
        fill = (from, 0, until, number)
        recording.findings.filled.append((Double(clock.utc(from)), Double(clock.utc(until))))
    }

    private func gap(from: Int64, until: Int64) {
        let start = Double(clock.utc(from))
        recording.findings.gaps.append((start, Double(clock.utc(until)) - start))
    }

    private func emitFill(into rows: inout RowBuffer, upTo target: Int) {
        guard var f = fill, let v = last else { return }
        if rows.filled.isEmpty { rows.filled = [Bool](repeating: false, count: rows.count) }
        let period = 1 / Double(rate)
        while rows.count < target && f.second < f.until {
            let base = Double(clock.utc(f.second))
            while rows.count < target && f.index < rate {
                rows.append(time: base + Double(f.index) * period, x: v.x, y: v.y, z: v.z, line: f.number)
                rows.filled.append(true)
                f.index += 1
            }
            if f.index == rate {
                f.index = 0
                f.second += 1
            }
        }
        fill = f.second < f.until ? f : nil
    }

    private func emitRecord(into rows: inout RowBuffer, upTo target: Int) {
        guard var p = pending else { return }
        let n = min(p.count - p.next, target - rows.count)
        let before = rows.count
        let period = 1 / Double(rate)
        let k = scale
        let bytes = p.payload.baseAddress!
        for i in p.next..<(p.next + n) {
            let (x, y, z): (Int16, Int16, Int16)
            if p.packed {
                // 36 bits a sample, Y X Z: even samples start on a byte, odd ones mid-byte.
                let b = bytes + (i >> 1) * 9
                if i & 1 == 0 {
                    y = Self.twelve(UInt16(b[0]) << 4 | UInt16(b[1]) >> 4)
                    x = Self.twelve(UInt16(b[1] & 0x0F) << 8 | UInt16(b[2]))
                    z = Self.twelve(UInt16(b[3]) << 4 | UInt16(b[4]) >> 4)
                } else {
                    y = Self.twelve(UInt16(b[4] & 0x0F) << 8 | UInt16(b[5]))
                    x = Self.twelve(UInt16(b[6]) << 4 | UInt16(b[7]) >> 4)
                    z = Self.twelve(UInt16(b[7] & 0x0F) << 8 | UInt16(b[8]))
                }
            } else {
                x = Int16(littleEndian: bytes.loadUnaligned(fromByteOffset: i * 6, as: Int16.self))
                y = Int16(littleEndian: bytes.loadUnaligned(fromByteOffset: i * 6 + 2, as: Int16.self))
                z = Int16(littleEndian: bytes.loadUnaligned(fromByteOffset: i * 6 + 4, as: Int16.self))
            }
            rows.append(
                time: p.utc + Double(i) * period, x: Double(x) / k, y: Double(y) / k, z: Double(z) / k, line: p.number)
        }
        if !rows.filled.isEmpty { rows.filled.append(contentsOf: repeatElement(false, count: rows.count - before)) }
        if n > 0 { last = (rows.xs[rows.count - 1], rows.ys[rows.count - 1], rows.zs[rows.count - 1]) }
        p.next += n
        pending = p.next < p.count ? p : nil
    }

    /// A 12-bit two's complement value, sign-extended.
    @inline(__always) static func twelve(_ v: UInt16) -> Int16 { Int16(bitPattern: v << 4) >> 4 }
}

extension UnsafeRawPointer {
    fileprivate subscript(i: Int) -> UInt8 { load(fromByteOffset: i, as: UInt8.self) }
}
