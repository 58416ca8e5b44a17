#if canImport(Glibc)
    import Glibc
#endif

/// One member of a zip archive, as its central directory (or, in a damaged archive, its local
/// header) describes it.
public struct ZipEntry: Sendable {
    /// The member's name, `/`-separated.
    public var name: String
    /// 0 stored, 8 deflated; others are refused when the member is read.
    public var method: UInt16
    /// Size of the stored data; `nil` when a damaged archive does not say (read to the end instead).
    public var compressedSize: Int64?
    /// Size once decompressed; `nil` when unknown.
    public var uncompressedSize: Int64?
    /// Offset of the member's local header in the file.
    public var headerOffset: Int64
}

/// Reads a zip archive's table of contents and streams its members, in constant memory and
/// without a dependency beyond zlib.
///
/// The central directory at the end is used when it is there. An archive cut short (a copy
/// that stopped, a download that failed) has none, so the local headers are walked from the
/// start instead, and a member is read up to where the file ends; reading it then reports
/// where the data stops rather than passing a short member off as whole.
///
/// # Thread safety
/// Not thread-safe: one reader owns it on its stage's queue.
public final class ZipArchive {
    /// The path, as used in messages.
    public let path: String
    /// The members, in the order the archive lists them.
    public private(set) var entries: [ZipEntry] = []
    /// Whether the central directory was missing and the local headers were walked instead.
    public private(set) var centralDirectoryMissing = false
    let fd: Int32
    /// The file's size in bytes.
    public let fileSize: Int64

    /// Opens `path` and reads its table of contents.
    /// - Throws: ``OutputFileError`` naming the file: it cannot be opened, is not a zip, or its
    ///   directory is damaged (with the byte offset).
    public init(path: String) throws {
        self.path = path
        fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw OutputFileError(path: path, reason: OpenFailure.reason(path)) }
        var st = stat()
        guard fstat(fd, &st) == 0, (st.st_mode & S_IFMT) != S_IFDIR else {
            _ = close(fd)
            throw OutputFileError(path: path, reason: "is a directory")
        }
        fileSize = Int64(st.st_size)
        // Every property is set from here, so an error thrown below runs `deinit`, which closes
        // the file: closing it here as well closed whatever descriptor another thread had
        // opened under the same number in between.
        guard try Self.isZip(fd: fd) else { throw OutputFileError(path: path, reason: "is not a zip archive") }
        if let end = try findEndOfDirectory() {
            try readCentralDirectory(end)
        } else {
            centralDirectoryMissing = true
            try walkLocalHeaders()
        }
    }

    deinit { _ = close(fd) }

    /// Whether the file at `path` starts like a zip archive (a local header's signature).
    public static func looksLikeZip(path: String) -> Bool {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { _ = close(fd) }
        return (try? isZip(fd: fd)) ?? false
    }

    private static func isZip(fd: Int32) throws -> Bool {
        var magic: UInt32 = 0
        let n = withUnsafeMutableBytes(of: &magic) { pread(fd, $0.baseAddress, 4, 0) }
        return n == 4 && UInt32(littleEndian: magic) == 0x0403_4B50
    }

    /// The member called `name`, if any.
    public func entry(named name: String) -> ZipEntry? { entries.first { $0.name == name } }

    /// Reads up to `count` bytes at `offset`; fewer only at the end of the file.
    func read(at offset: Int64, count: Int) throws -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        let n = try bytes.withUnsafeMutableBytes { try read(into: $0, at: offset) }
        bytes.removeLast(count - n)
        return bytes
    }

    /// Fills `buffer` from `offset`; returns the bytes read, fewer only at the end of the file.
    func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int64) throws -> Int {
        var total = 0
        while total < buffer.count {
            let n = pread(fd, buffer.baseAddress! + total, buffer.count - total, off_t(offset) + off_t(total))
            if n < 0 {
                if errno == EINTR { continue }
                throw OutputFileError(
                    path: path, reason: "\(String(cString: strerror(errno))) at byte \(offset + Int64(total))")
            }
            if n == 0 { break }
            total += n
        }
        return total
    }

    /// The end-of-central-directory record: where the directory is and how many members it lists.
    private func findEndOfDirectory() throws -> (offset: Int64, size: Int64, count: Int)? {
        // The record is 22 bytes plus a comment of at most 65,535, at the very end.
        let tail = Int(min(fileSize, 22 + 65_535))
        let bytes = try read(at: fileSize - Int64(tail), count: tail)
        guard bytes.count >= 22 else { return nil }
        var i = bytes.count - 22
        while i >= 0 {
            if bytes.u32(i) == 0x0605_4B50 && i + 22 + Int(bytes.u16(i + 20)) == bytes.count {
                let at = fileSize - Int64(tail) + Int64(i)
                var count = Int(bytes.u16(i + 10))
                var size = Int64(bytes.u32(i + 12))
                var offset = Int64(bytes.u32(i + 16))
                if i >= 20 && bytes.u32(i - 20) == 0x0706_4B50 {
                    // Zip64: the real numbers are in the zip64 end record the locator points to.
                    // Each is 64 bits unsigned, so each is checked before it becomes an offset.
                    let recordAt = try number(
                        bytes.u64(i - 12), "the zip64 record offset in the locator at byte \(at - 20)")
                    let record = try read(at: recordAt, count: 56)
                    guard record.count == 56, record.u32(0) == 0x0606_4B50 else {
                        throw OutputFileError(
                            path: path, reason: "the zip64 directory record named at byte \(at - 20) is missing")
                    }
                    size = try number(record.u64(40), "the directory size in the zip64 record at byte \(recordAt)")
                    // A directory entry takes at least 46 bytes: no directory lists more than that allows.
                    do throws(InputRangeError) {
                        count = try Int(
                            checked: record.u64(32), "the member count in the zip64 record at byte \(recordAt)",
                            in: 0...Int(size / 46))
                    } catch {
                        throw OutputFileError(path: path, reason: "\(error) (a directory of \(size) bytes)")
                    }
                    offset = try number(record.u64(48), "the directory offset in the zip64 record at byte \(recordAt)")
                }
                return (offset, size, count)
            }
            i -= 1
        }
        return nil
    }

    /// A 64-bit field of the archive as an offset or size within the file: one past the file's
    /// end is damage (or hostility), and converting it unchecked would trap.
    private func number(_ value: UInt64, _ what: @autoclosure () -> String) throws -> Int64 {
        do throws(InputRangeError) {
            return try Int64(checked: value, what(), in: 0...fileSize)
        } catch {
            throw OutputFileError(
                path: path, reason: "\(error.what) is \(error.value), past the end of the file (\(fileSize) bytes)")
        }
    }

    private func readCentralDirectory(_ end: (offset: Int64, size: Int64, count: Int)) throws {
        // Both lie within the file, so their sum cannot overflow.
        guard end.offset >= 0, end.size >= 0, end.offset <= fileSize, end.size <= fileSize - end.offset else {
            throw OutputFileError(
                path: path,
                reason: "the zip directory at byte \(end.offset) lies past the end of the file (\(fileSize) bytes)")
        }
        // A directory is small (about 50 bytes a member), but a hostile one is capped all the same.
        guard end.size <= 64 << 20 else {
            throw OutputFileError(
                path: path, reason: "the zip directory at byte \(end.offset) is implausibly large (\(end.size) bytes)")
        }
        let dir = try read(at: end.offset, count: Int(end.size))
        var p = 0
        for _ in 0..<end.count {
            guard p + 46 <= dir.count, dir.u32(p) == 0x0201_4B50 else {
                throw OutputFileError(
                    path: path, reason: "damaged zip directory entry at byte \(end.offset + Int64(p))")
            }
            let nameLength = Int(dir.u16(p + 28))
            let extraLength = Int(dir.u16(p + 30))
            let commentLength = Int(dir.u16(p + 32))
            guard p + 46 + nameLength + extraLength <= dir.count else {
                throw OutputFileError(
                    path: path, reason: "damaged zip directory entry at byte \(end.offset + Int64(p))")
            }
            var entry = ZipEntry(
                name: String(decoding: dir[(p + 46)..<(p + 46 + nameLength)], as: UTF8.self), method: dir.u16(p + 10),
                compressedSize: Int64(dir.u32(p + 20)), uncompressedSize: Int64(dir.u32(p + 24)),
                headerOffset: Int64(dir.u32(p + 42)))
            try applyZip64(
                &entry, extra: Array(dir[(p + 46 + nameLength)..<(p + 46 + nameLength + extraLength)]),
                at: end.offset + Int64(p))
            // A member starts, and its stored bytes end, inside the file: every offset computed
            // from them later stays far from overflowing.
            guard entry.headerOffset <= fileSize, (entry.compressedSize ?? 0) <= fileSize - entry.headerOffset else {
                throw OutputFileError(
                    path: path,
                    reason:
                        "the zip directory entry at byte \(end.offset + Int64(p)) puts \(PrintableText.escaped(entry.name)) past the end of the file (\(fileSize) bytes)"
                )
            }
            entries.append(entry)
            p += 46 + nameLength + extraLength + commentLength
        }
    }

    /// Sizes and offsets of 0xFFFFFFFF mean "see the zip64 extra field" of the entry at byte `at`.
    private func applyZip64(_ entry: inout ZipEntry, extra: [UInt8], at: Int64) throws {
        var i = 0
        while i + 4 <= extra.count {
            let id = extra.u16(i)
            let size = Int(extra.u16(i + 2))
            if id == 0x0001 {
                var q = i + 4
                func next(_ what: String) throws(InputRangeError) -> Int64? {
                    guard q + 8 <= i + 4 + size, q + 8 <= extra.count else { return nil }
                    defer { q += 8 }
                    return try Int64(checked: extra.u64(q), "\(what) in the zip64 field of the entry at byte \(at)")
                }
                do throws(InputRangeError) {
                    if entry.uncompressedSize == 0xFFFF_FFFF { entry.uncompressedSize = try next("the size") }
                    if entry.compressedSize == 0xFFFF_FFFF { entry.compressedSize = try next("the stored size") }
                    if entry.headerOffset == 0xFFFF_FFFF {
                        entry.headerOffset = try next("the header offset") ?? entry.headerOffset
                    }
                } catch {
                    throw OutputFileError(path: path, reason: error.description)
                }
                return
            }
            i += 4 + size
        }
    }

    /// Without a central directory: member after member from the start, until the file or the
    /// headers end. A member whose size its header leaves open is inflated to find its end.
    private func walkLocalHeaders() throws {
        var at: Int64 = 0
        while at + 30 <= fileSize {
            let header = try read(at: at, count: 30)
            guard header.count == 30, header.u32(0) == 0x0403_4B50 else { break }
            let flags = header.u16(6)
            let method = header.u16(8)
            let nameLength = Int(header.u16(26))
            let extraLength = Int(header.u16(28))
            let name = String(decoding: try read(at: at + 30, count: nameLength), as: UTF8.self)
            let sizeLater = flags & 0x08 != 0
            var entry = ZipEntry(
                name: name, method: method, compressedSize: sizeLater ? nil : Int64(header.u32(18)),
                uncompressedSize: sizeLater ? nil : Int64(header.u32(22)), headerOffset: at)
            let dataStart = at + 30 + Int64(nameLength + extraLength)
            var length = entry.compressedSize
            if length == nil && method == 8 { length = try deflatedLength(from: dataStart) }
            guard let length, dataStart + length <= fileSize else {
                // This member runs past the end of the file: it is listed, and reading it says where it stops.
                entry.compressedSize = nil
                entries.append(entry)
                break
            }
            entry.compressedSize = length
            entries.append(entry)
            at = dataStart + length
            if sizeLater {
                // A data descriptor follows, with or without its signature.
                let d = try read(at: at, count: 4)
                at += (d.count == 4 && d.u32(0) == 0x0807_4B50) ? 16 : 12
            }
        }
        if entries.isEmpty { throw OutputFileError(path: path, reason: "no readable zip member at byte 0") }
    }

    /// The compressed length of the deflate stream at `offset`, or nil if the file ends inside it.
    private func deflatedLength(from offset: Int64) throws -> Int64? {
        let inflater = try Inflater()
        var input = [UInt8](repeating: 0, count: 1 << 16)
        var output = [UInt8](repeating: 0, count: 1 << 16)
        var at = offset
        while !inflater.finished {
            let n = try input.withUnsafeMutableBytes { try read(into: $0, at: at) }
            if n == 0 { return nil }
            var used = 0
            while used < n && !inflater.finished {
                let step = try input.withUnsafeBytes { inBytes in
                    try output.withUnsafeMutableBytes {
                        try inflater.inflate(UnsafeRawBufferPointer(rebasing: inBytes[used..<n]), into: $0)
                    }
                }
                used += step.consumed
                if step.consumed == 0 && step.produced == 0 { break }
            }
            at += Int64(used)
        }
        return at - offset
    }
}

extension [UInt8] {
    // Little-endian fields of zip headers.

    fileprivate func u16(_ i: Int) -> UInt16 { UInt16(self[i]) | UInt16(self[i + 1]) << 8 }
    fileprivate func u32(_ i: Int) -> UInt32 { UInt32(u16(i)) | UInt32(u16(i + 2)) << 16 }
    fileprivate func u64(_ i: Int) -> UInt64 { UInt64(u32(i)) | UInt64(u32(i + 4)) << 32 }
}
