import DAQCore

#if canImport(Glibc)
    import Glibc
#endif

/// Frames the records of a .gt3x `log.bin` as it is decompressed: separator 0x1E, type,
/// timestamp, size, payload, checksum. Bytes are read into one large buffer and records are
/// handed out as views into it, so nothing is copied or allocated per record.
///
/// A record whose checksum fails, or bytes where a record should start, come back as
/// ``Item/corrupt(number:offset:reason:)`` and reading goes on at the next valid record.
final class GT3XLog {
    /// One record; `payload` points into the buffer and is valid until the next ``next()``.
    struct Record {
        var type: UInt8
        /// Device local time, seconds since 1970 as if it were UTC.
        var timestamp: UInt32
        var payload: UnsafeRawBufferPointer
        /// 1-based, counting every record framed so far.
        var number: Int
        /// Offset of the record in log.bin.
        var offset: Int64
    }

    enum Item {
        case record(Record)
        case corrupt(number: Int, offset: Int64, reason: String)
        case end
    }

    private let stream: ZipEntryStream
    private let buffer: UnsafeMutableRawBufferPointer
    private var start = 0
    private var end = 0
    /// Offset in log.bin of `buffer[0]`.
    private var base: Int64 = 0
    private var atEnd = false
    /// An error of the zip stream, raised once the records read before it are handed out.
    private var failure: (any Error)?
    private(set) var number = 0

    init(stream: ZipEntryStream, capacity: Int = 1 << 20) {
        self.stream = stream
        buffer = .allocate(byteCount: max(capacity, 1 << 17), alignment: 8)
    }

    deinit { buffer.deallocate() }

    /// Offset in log.bin of the next byte to frame.
    var offset: Int64 { base + Int64(start) }

    /// The next record, a damaged stretch, or the end.
    /// - Throws: what the zip stream throws (a cut-short file, bad deflate data), after every
    ///   record before that point was handed out.
    func next() throws -> Item {
        while true {
            guard try ensure(8) else {
                if let failure { return try raise(failure) }
                if start == end { return .end }
                return truncated("log.bin ends inside a record header")
            }
            let p = buffer.baseAddress! + start
            let first = p.load(as: UInt8.self)
            if first == 0 {
                // The specification allows stray zero bytes between records.
                start += 1
                continue
            }
            if first != 0x1E {
                let at = offset
                number += 1
                let skipped = try resync()
                return .corrupt(
                    number: number, offset: at,
                    reason: "no record separator here; skipped \(skipped) bytes to the next valid record")
            }
            let size = Int(
                UInt16(p.load(fromByteOffset: 6, as: UInt8.self)) | UInt16(p.load(fromByteOffset: 7, as: UInt8.self))
                    << 8)
            guard try ensure(9 + size) else {
                if let failure { return try raise(failure) }
                return truncated("log.bin ends inside a record of \(size) payload bytes")
            }
            let r = buffer.baseAddress! + start
            number += 1
            let at = offset
            start += 9 + size
            guard Self.checksumMatches(r, size: size) else {
                return .corrupt(number: number, offset: at, reason: "fails its checksum")
            }
            return .record(
                Record(
                    type: r.load(fromByteOffset: 1, as: UInt8.self),
                    timestamp: UInt32(littleEndian: r.loadUnaligned(fromByteOffset: 2, as: UInt32.self)),
                    payload: UnsafeRawBufferPointer(start: r + 8, count: size), number: number, offset: at))
        }
    }

    /// The stream's error, once: a record cut by it is not reported as damaged as well.
    private func raise(_ error: any Error) throws -> Item {
        failure = nil
        start = end
        throw error
    }

    /// Calls `body` on each whole record already buffered, without consuming any, until it
    /// returns a value or an activity record comes; reading ahead so a header's worth of
    /// settings (PARAMETERS) is known before the first sample.
    func peek<T>(_ body: (Record) -> T?) throws -> T? {
        _ = try ensure(1 << 17)
        var i = start
        while end - i >= 8 {
            let r = buffer.baseAddress! + i
            let type = r.load(fromByteOffset: 1, as: UInt8.self)
            if r.load(as: UInt8.self) == 0 {
                i += 1
                continue
            }
            let size =
                Int(r.load(fromByteOffset: 6, as: UInt8.self)) | Int(r.load(fromByteOffset: 7, as: UInt8.self)) << 8
            guard r.load(as: UInt8.self) == 0x1E, end - i >= 9 + size, type != 0x00, type != 0x1A else { return nil }
            if Self.checksumMatches(r, size: size) {
                let record = Record(
                    type: type, timestamp: UInt32(littleEndian: r.loadUnaligned(fromByteOffset: 2, as: UInt32.self)),
                    payload: UnsafeRawBufferPointer(start: r + 8, count: size), number: 0, offset: base + Int64(i))
                if let value = body(record) { return value }
            }
            i += 9 + size
        }
        return nil
    }

    private func truncated(_ reason: String) -> Item {
        number += 1
        let at = offset
        start = end
        return .corrupt(number: number, offset: at, reason: reason)
    }

    /// Skips to the next 0x1E that starts a record with a good checksum; returns the bytes skipped.
    private func resync() throws -> Int {
        var skipped = 1
        start += 1
        while true {
            guard try ensure(1) else { return skipped }
            let found = memchr(buffer.baseAddress! + start, 0x1E, end - start)
            guard let found else {
                skipped += end - start
                start = end
                continue
            }
            let j = buffer.baseAddress!.distance(to: UnsafeMutableRawPointer(found))
            skipped += j - start
            start = j
            guard try ensure(8) else {
                skipped += end - start
                start = end
                return skipped
            }
            let size =
                Int(buffer.load(fromByteOffset: start + 6, as: UInt8.self)) | Int(
                    buffer.load(fromByteOffset: start + 7, as: UInt8.self)) << 8
            // A 0x1E inside the damage may claim more bytes than are left: not a record, scan on.
            if try ensure(9 + size), Self.checksumMatches(buffer.baseAddress! + start, size: size) { return skipped }
            start += 1
            skipped += 1
        }
    }

    /// Whether the 1's complement XOR of header and payload equals the byte after the payload.
    static func checksumMatches(_ r: UnsafeRawPointer, size: Int) -> Bool {
        let n = 8 + size
        var wide: UInt64 = 0
        var i = 0
        while i + 8 <= n {
            wide ^= r.loadUnaligned(fromByteOffset: i, as: UInt64.self)
            i += 8
        }
        var x: UInt8 = 0
        for k in 0..<8 { x ^= UInt8(truncatingIfNeeded: wide >> (8 * UInt64(k))) }
        while i < n {
            x ^= r.load(fromByteOffset: i, as: UInt8.self)
            i += 1
        }
        return ~x == r.load(fromByteOffset: n, as: UInt8.self)
    }

    /// Makes at least `count` bytes available from `start`; false if log.bin ends first.
    private func ensure(_ count: Int) throws -> Bool {
        if end - start >= count { return true }
        if atEnd { return false }
        if start > 0 {
            let keep = end - start
            if keep > 0 { buffer.baseAddress!.copyMemory(from: buffer.baseAddress! + start, byteCount: keep) }
            base += Int64(start)
            start = 0
            end = keep
        }
        while end - start < count && end < buffer.count {
            let n: Int
            do {
                n = try stream.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[end...]))
            } catch {
                failure = error
                atEnd = true
                return end - start >= count
            }
            if n == 0 {
                atEnd = true
                return false
            }
            end += n
        }
        return end - start >= count
    }
}
