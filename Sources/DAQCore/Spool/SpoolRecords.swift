import Foundation

/// The bytes of spool records and segment files (the layout is in ``MessageSpool``'s docs).
public enum SpoolRecords {
    struct Summary {
        var first: UInt64
        var last: UInt64
    }

    static func path(_ directory: String, _ number: Int, _ ext: String) -> String {
        var digits = String(number)
        if digits.count < 12 { digits = String(repeating: "0", count: 12 - digits.count) + digits }
        return "\(directory)/\(digits).\(ext)"
    }

    /// Appends one record to `out`, which ``MessageSpool/append(_:sequences:)`` then writes.
    /// - Precondition: `key` is at most 65,535 bytes.
    public static func append(
        sequence: UInt64, key: String, options: UInt16, samples: Int, payload: UnsafeRawBufferPointer,
        to out: inout [UInt8]
    ) {
        let keyBytes = key.utf8.count
        precondition(keyBytes <= Int(UInt16.max), "a spool key is at most 65,535 bytes")
        let length = 8 + 2 + 4 + 2 + keyBytes + payload.count
        appendBE(UInt32(length), to: &out)
        appendBE(sequence, to: &out)
        appendBE(options, to: &out)
        appendBE(UInt32(clamping: samples), to: &out)
        appendBE(UInt16(keyBytes), to: &out)
        out.append(contentsOf: key.utf8)
        out.append(contentsOf: payload)
    }

    /// Reads segment `number`: its sequence range and the messages not acknowledged in its
    /// `.acks` file.
    /// - Throws: ``SpoolError`` when the files cannot be read or a record is damaged mid-file.
    static func read(directory: String, number: Int) throws -> (Summary, [MessageSpool.Message]) {
        let spoolPath = path(directory, number, "spool")
        guard let data = FileManager.default.contents(atPath: spoolPath) else {
            throw SpoolError("cannot read \(spoolPath)")
        }
        var acked = Set<UInt64>()
        if let acks = FileManager.default.contents(atPath: path(directory, number, "acks")) {
            let bytes = [UInt8](acks)
            var i = 0
            while i + 8 <= bytes.count {
                acked.insert(readBE(bytes, i, UInt64.self))
                i += 8
            }
        }
        let bytes = [UInt8](data)
        var messages: [MessageSpool.Message] = []
        var summary = Summary(first: .max, last: 0)
        var i = 0
        while i + 4 <= bytes.count {
            let length = Int(readBE(bytes, i, UInt32.self))
            // A record cut short at the end was being written when the process died: never accepted.
            guard i + 4 + length <= bytes.count else { break }
            guard length >= 16 else { throw SpoolError("\(spoolPath): damaged record at byte \(i)") }
            var j = i + 4
            let seq = readBE(bytes, j, UInt64.self)
            j += 8
            let options = readBE(bytes, j, UInt16.self)
            j += 2
            let samples = Int(readBE(bytes, j, UInt32.self))
            j += 4
            let keyLength = Int(readBE(bytes, j, UInt16.self))
            j += 2
            guard j + keyLength <= i + 4 + length else {
                throw SpoolError("\(spoolPath): damaged record at byte \(i)")
            }
            let key = String(decoding: bytes[j..<(j + keyLength)], as: UTF8.self)
            j += keyLength
            summary.first = min(summary.first, seq)
            summary.last = max(summary.last, seq)
            if !acked.contains(seq) {
                messages.append(
                    MessageSpool.Message(
                        sequence: seq, key: key, options: options, samples: samples,
                        payload: Array(bytes[j..<(i + 4 + length)])))
            }
            i += 4 + length
        }
        if summary.first == .max { summary.first = 0 }
        return (summary, messages)
    }

    static func openAcks(_ directory: String, _ number: Int) -> FileHandle? {
        let p = path(directory, number, "acks")
        if !FileManager.default.fileExists(atPath: p) { _ = FileManager.default.createFile(atPath: p, contents: nil) }
        guard let h = FileHandle(forWritingAtPath: p) else { return nil }
        _ = try? h.seekToEnd()
        return h
    }

    static func remove(directory: String, number: Int) {
        try? FileManager.default.removeItem(atPath: path(directory, number, "spool"))
        try? FileManager.default.removeItem(atPath: path(directory, number, "acks"))
    }

    private static func appendBE<T: FixedWidthInteger>(_ v: T, to out: inout [UInt8]) {
        withUnsafeBytes(of: v.bigEndian) { out.append(contentsOf: $0) }
    }

    private static func readBE<T: FixedWidthInteger>(_ bytes: [UInt8], _ at: Int, _: T.Type) -> T {
        var v: T = 0
        for k in 0..<MemoryLayout<T>.size { v = v << 8 | T(bytes[at + k]) }
        return v
    }
}
