import Foundation

/// Tells a text reader that the file it was given is not text, and what it is when its first
/// bytes say so: a device recording or a capture given to the wrong source is a common slip,
/// and "invalid JSON at byte 1" does not tell the user which source to use instead.
public enum BinarySniff {
    /// How much of the file is looked at.
    public static let headBytes = 4096

    /// Why `head` (a file's first bytes) is not text for a text reader, naming a known format;
    /// `nil` when it reads as text.
    public static func describe(_ head: some Collection<UInt8>) -> String? {
        let bytes = Array(head.prefix(headBytes))
        if let known = knownFormat(bytes) { return "the file looks binary: \(known)" }
        guard !bytes.isEmpty else { return nil }
        if bytes.contains(0) { return "the file looks binary (it holds NUL bytes)" }
        // Text has few control characters; broken UTF-8 counts as binary too.
        var odd = bytes.count { $0 < 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D || $0 == 0x7F }
        if String(validating: bytes.prefix(bytes.count - Self.cutScalar(bytes)), as: UTF8.self) == nil {
            odd += bytes.count / 10 + 1
        }
        return odd * 10 > bytes.count ? "the file looks binary (control characters or invalid UTF-8)" : nil
    }

    /// ``describe(_:)`` of the first bytes of the regular file at `path`; `nil` when it cannot be
    /// read or is not a regular file (a FIFO, a device).
    public static func describe(path: String) -> String? {
        // Only a regular file can be looked into and read again: the first bytes of a FIFO or a
        // device are the reader's, and waiting for 4 KB of them could wait forever.
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG, let handle = FileHandle(forReadingAtPath: path)
        else { return nil }
        defer { try? handle.close() }
        guard let head = try? handle.read(upToCount: headBytes) else { return nil }
        return describe(head)
    }

    /// Throws when the file at `path` is not text, saying what it looks like and that
    /// `expected` was; a `.gz` file is left to its reader, which sees the decompressed bytes.
    /// - Throws: ``NotText``.
    public static func requireText(path: String, expected: String) throws(NotText) {
        guard !path.hasSuffix(".gz"), let reason = describe(path: path) else { return }
        throw NotText(description: "\(path): \(reason); expected \(expected)")
    }

    /// A text reader given a binary file.
    public struct NotText: Error, CustomStringConvertible {
        public var description: String
    }

    private static func knownFormat(_ b: [UInt8]) -> String? {
        func starts(_ magic: [UInt8]) -> Bool { b.count >= magic.count && Array(b.prefix(magic.count)) == magic }
        if starts([0x50, 0x4B, 0x03, 0x04]) {
            return "a ZIP archive (an ActiGraph .gt3x recording is one: motion.replay reads it)"
        }
        if starts([0x4D, 0x44, 0xFC, 0x03]) {
            return "an Axivity .cwa recording (motion.replay reads it)"
        }
        if starts(Array("Device Identity".utf8)) { return "a GENEActiv .bin recording (motion.replay reads it)" }
        if starts([0x1F, 0x8B]) { return "gzip-compressed (name it .gz and it is decompressed as it is read)" }
        if starts(Array("btsnoop\0".utf8)) { return "a btsnoop capture (ble.replay reads it)" }
        if starts([0xD4, 0xC3, 0xB2, 0xA1]) || starts([0xA1, 0xB2, 0xC3, 0xD4]) || starts([0x0A, 0x0D, 0x0D, 0x0A]) {
            return "a pcap capture (ble.replay reads it)"
        }
        if starts([0x7F, 0x45, 0x4C, 0x46]) { return "an executable (ELF)" }
        return nil
    }

    /// Bytes at the end that begin a UTF-8 sequence the head cut in two.
    private static func cutScalar(_ b: [UInt8]) -> Int {
        var n = 0
        while n < min(3, b.count), b[b.count - 1 - n] & 0xC0 == 0x80 { n += 1 }
        if n < b.count, b[b.count - 1 - n] >= 0xC0 { return n + 1 }
        return 0
    }
}
