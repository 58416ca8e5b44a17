import CZlib
import DAQCore

#if canImport(Glibc)
    import Glibc
#endif

/// Writes a zip archive member by member, each stored or deflated, streaming: a member of
/// hundreds of megabytes is written in constant memory. Device formats that are zips (.gt3x)
/// are made with it in tests.
///
/// Sizes and CRC are patched into each local header once the member is written, so the
/// archive needs no data descriptors and readers that walk local headers find every size.
///
/// # Thread safety
/// Not thread-safe: one test owns it.
public final class ZipWriter {
    /// How a member's bytes are stored.
    public enum Method: Sendable {
        case stored
        case deflated(level: Int32)
    }

    private let fd: Int32
    private let path: String
    private var offset: Int64 = 0
    private var directory: [UInt8] = []
    private var count = 0
    private var current: (name: [UInt8], header: Int64, method: Method, crc: uLong, size: Int64, compressed: Int64)?
    private var deflater: UnsafeMutablePointer<z_stream>?
    private var out = [UInt8](repeating: 0, count: 1 << 16)
    /// Whether the archive ends with a zip64 end record and locator, the end record deferring
    /// to them (as archives over 4 GiB or 65,535 members must): the reader's zip64 path.
    public var endsWithZip64 = false

    /// Creates (or truncates) `path`.
    /// - Throws: ``ZipWriterError`` if it cannot be created.
    public init(path: String) throws {
        self.path = path
        fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw ZipWriterError(path: path, reason: String(cString: strerror(errno))) }
    }

    deinit {
        if let deflater {
            deflateEnd(deflater)
            deflater.deallocate()
        }
        _ = Glibc.close(fd)
    }

    /// Starts a member called `name`; the previous one is finished first.
    public func begin(_ name: String, method: Method = .deflated(level: 6)) throws {
        try end()
        let nameBytes = Array(name.utf8)
        current = (nameBytes, offset, method, crc32(0, nil, 0), 0, 0)
        try put(
            header(
                signature: 0x0403_4B50, central: false, name: nameBytes, method: method, crc: 0, compressed: 0, size: 0)
        )
        if case .deflated(let level) = method {
            let z = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
            z.initialize(to: z_stream())
            guard
                deflateInit2_(
                    z, level, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY, zlibVersion(), Int32(MemoryLayout<z_stream>.size))
                    == Z_OK
            else {
                z.deallocate()
                throw ZipWriterError(path: path, reason: "cannot start zlib")
            }
            deflater = z
        }
    }

    /// Appends bytes to the current member.
    public func write(_ bytes: [UInt8]) throws {
        guard current != nil, !bytes.isEmpty else { return }
        current!.crc = bytes.withUnsafeBufferPointer { crc32(current!.crc, $0.baseAddress, uInt($0.count)) }
        current!.size += Int64(bytes.count)
        if let deflater {
            try bytes.withUnsafeBufferPointer { try pump(deflater, input: $0, flush: Z_NO_FLUSH) }
        } else {
            try put(bytes)
            current!.compressed += Int64(bytes.count)
        }
    }

    private func pump(_ z: UnsafeMutablePointer<z_stream>, input: UnsafeBufferPointer<UInt8>, flush: Int32) throws {
        z.pointee.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
        z.pointee.avail_in = uInt(input.count)
        repeat {
            let (code, produced): (Int32, Int) = out.withUnsafeMutableBufferPointer { buf in
                z.pointee.next_out = buf.baseAddress
                z.pointee.avail_out = uInt(buf.count)
                let code = deflate(z, flush)
                return (code, buf.count - Int(z.pointee.avail_out))
            }
            guard code == Z_OK || code == Z_STREAM_END || code == Z_BUF_ERROR else {
                throw ZipWriterError(path: path, reason: "deflate failed (\(code))")
            }
            try put(Array(out[0..<produced]))
            current!.compressed += Int64(produced)
            if flush == Z_FINISH ? code == Z_STREAM_END : z.pointee.avail_in == 0 && z.pointee.avail_out > 0 { break }
        } while true
        z.pointee.next_in = nil
    }

    /// Finishes the current member: flushes its data and patches its header's sizes and CRC.
    public func end() throws {
        guard let c = current else { return }
        if let deflater {
            try pump(deflater, input: UnsafeBufferPointer(start: nil, count: 0), flush: Z_FINISH)
            deflateEnd(deflater)
            deflater.deallocate()
            self.deflater = nil
        }
        let done = current!
        let local = header(
            signature: 0x0403_4B50, central: false, name: c.name, method: c.method, crc: done.crc,
            compressed: done.compressed, size: done.size)
        let n = local.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, off_t(c.header)) }
        guard n == local.count else { throw ZipWriterError(path: path, reason: String(cString: strerror(errno))) }
        directory += header(
            signature: 0x0201_4B50, central: true, name: c.name, method: c.method, crc: done.crc,
            compressed: done.compressed, size: done.size, at: c.header)
        count += 1
        current = nil
    }

    /// Finishes the last member and writes the central directory.
    public func close() throws {
        try end()
        let start = offset
        try put(directory)
        var e = [UInt8]()
        if endsWithZip64 {
            let record = offset
            e.le(0x0606_4B50, 4)
            e.le(44, 8)  // the record's size after this field
            e.le(45, 2)  // version made by
            e.le(45, 2)  // version needed
            e.le(0, 4)  // this disk
            e.le(0, 4)  // the directory's disk
            e.le(UInt64(count), 8)
            e.le(UInt64(count), 8)
            e.le(UInt64(directory.count), 8)
            e.le(UInt64(start), 8)
            e.le(0x0706_4B50, 4)  // the locator
            e.le(0, 4)
            e.le(UInt64(record), 8)
            e.le(1, 4)
        }
        e.le(0x0605_4B50, 4)
        e.le(0, 4)
        e.le(endsWithZip64 ? 0xFFFF : UInt64(count), 2)
        e.le(endsWithZip64 ? 0xFFFF : UInt64(count), 2)
        e.le(endsWithZip64 ? 0xFFFF_FFFF : UInt64(directory.count), 4)
        e.le(endsWithZip64 ? 0xFFFF_FFFF : UInt64(start), 4)
        e.le(0, 2)
        try put(e)
    }

    private func header(
        signature: UInt64, central: Bool, name: [UInt8], method: Method, crc: uLong, compressed: Int64, size: Int64,
        at: Int64 = 0
    ) -> [UInt8] {
        var h = [UInt8]()
        h.le(signature, 4)
        if central { h.le(20, 2) }
        h.le(20, 2)  // version needed
        h.le(0, 2)  // flags
        if case .deflated = method { h.le(8, 2) } else { h.le(0, 2) }
        h.le(0x6000, 2)  // 12:00
        h.le(0x5A21, 2)  // 2025-01-01
        h.le(UInt64(crc), 4)
        h.le(UInt64(compressed), 4)
        h.le(UInt64(size), 4)
        h.le(UInt64(name.count), 2)
        h.le(0, 2)  // extra
        if central {
            h.le(0, 2)  // comment
            h.le(0, 2)  // disk
            h.le(0, 2)  // internal attributes
            h.le(0, 4)  // external attributes
            h.le(UInt64(at), 4)
        }
        return h + name
    }

    private func put(_ bytes: [UInt8]) throws {
        guard !bytes.isEmpty else { return }
        let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        guard n == bytes.count else { throw ZipWriterError(path: path, reason: String(cString: strerror(errno))) }
        offset += Int64(n)
    }
}

/// A zip that cannot be written: the path and why.
public struct ZipWriterError: Error, CustomStringConvertible {
    public var path: String
    public var reason: String
    public var description: String { "\(path): \(reason)" }
}

extension [UInt8] {
    /// Appends `value` as `width` little-endian bytes.
    mutating func le(_ value: UInt64, _ width: Int) {
        for i in 0..<width { append(UInt8(truncatingIfNeeded: value >> (8 * UInt64(i)))) }
    }
}
