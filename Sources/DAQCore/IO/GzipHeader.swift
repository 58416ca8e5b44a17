import CZlib

/// Reads the header of one gzip member (RFC 1952 §2.3) a byte at a time, so a header split
/// across reads, or cut off by the end of the file, is seen for what it is.
///
/// The optional name, comment and extra field are skipped without being kept, so a hostile
/// header costs no memory; a header CRC (`FHCRC`) is checked as gzip(1) checks it.
struct GzipHeaderParser {
    private enum Stage {
        /// The fixed 10 bytes: magic, method, flags, time, extra flags, OS.
        case fixed(seen: Int)
        /// The 2-byte length of the extra field.
        case extraLength(seen: Int, length: Int)
        /// The extra field's bytes still to skip.
        case extra(left: Int)
        /// A zero-terminated file name.
        case name
        /// A zero-terminated comment.
        case comment
        /// The 2-byte header CRC.
        case headerCRC(seen: Int, value: UInt16)
        case done
    }

    private static let hcrcFlag: UInt8 = 0x02
    private static let extraFlag: UInt8 = 0x04
    private static let nameFlag: UInt8 = 0x08
    private static let commentFlag: UInt8 = 0x10

    private var stage = Stage.fixed(seen: 0)
    private var flags: UInt8 = 0
    /// CRC-32 of the header bytes before the header CRC.
    private var crc = crc32(0, nil, 0)

    /// Whether the whole header has been read.
    var isDone: Bool {
        if case .done = stage { return true }
        return false
    }

    /// Takes the next header byte.
    /// - Returns: whether the header is now complete.
    /// - Throws: the reason (without an offset) when the byte cannot be part of a gzip header.
    mutating func take(_ byte: UInt8) throws(GzipHeaderProblem) -> Bool {
        if case .headerCRC = stage {
        } else {
            crc = withUnsafeBytes(of: byte) { crc32(crc, $0.baseAddress?.assumingMemoryBound(to: Bytef.self), 1) }
        }
        switch stage {
        case .fixed(let seen):
            switch seen {
            case 0 where byte != 0x1F, 1 where byte != 0x8B:
                throw GzipHeaderProblem(message: "expected the gzip magic bytes 1f 8b, found \(Self.hex(byte))")
            case 2 where byte != 8:
                throw GzipHeaderProblem(message: "compression method \(byte) is not deflate (8)")
            case 3:
                guard byte & 0xE0 == 0 else {
                    throw GzipHeaderProblem(message: "reserved header flag bits are set (flags \(Self.hex(byte)))")
                }
                flags = byte
            default: break
            }
            stage = seen == 9 ? next(after: .fixed(seen: 9)) : .fixed(seen: seen + 1)
        case .extraLength(let seen, let length):
            let total = length | Int(byte) << (8 * seen)
            stage =
                seen == 1
                ? (total == 0 ? next(after: .extra(left: 0)) : .extra(left: total))
                : .extraLength(seen: 1, length: total)
        case .extra(let left):
            stage = left == 1 ? next(after: .extra(left: 0)) : .extra(left: left - 1)
        case .name:
            if byte == 0 { stage = next(after: .name) }
        case .comment:
            if byte == 0 { stage = next(after: .comment) }
        case .headerCRC(let seen, let value):
            let stored = value | UInt16(byte) << (8 * UInt16(seen))
            guard seen == 1 else {
                stage = .headerCRC(seen: 1, value: stored)
                return false
            }
            let computed = UInt16(truncatingIfNeeded: crc)
            guard stored == computed else {
                throw GzipHeaderProblem(
                    message: "the header CRC is \(Self.hex(computed)), the header says \(Self.hex(stored))")
            }
            stage = .done
        case .done:
            return true
        }
        return isDone
    }

    /// The part that follows `stage`, by the header's flags, in the order RFC 1952 gives them.
    private func next(after stage: Stage) -> Stage {
        var order: [(UInt8, Stage)] = [
            (Self.extraFlag, .extraLength(seen: 0, length: 0)), (Self.nameFlag, .name), (Self.commentFlag, .comment),
            (Self.hcrcFlag, .headerCRC(seen: 0, value: 0)),
        ]
        switch stage {
        case .fixed: break
        case .extraLength, .extra: order.removeFirst(1)
        case .name: order.removeFirst(2)
        case .comment: order.removeFirst(3)
        default: order.removeAll()
        }
        return order.first { flags & $0.0 != 0 }?.1 ?? .done
    }

    /// Where in the header the input ended, for messages.
    var part: String {
        switch stage {
        case .fixed: return "its fixed 10 bytes"
        case .extraLength, .extra: return "its extra field"
        case .name: return "its file name"
        case .comment: return "its comment"
        case .headerCRC: return "its header CRC"
        case .done: return "its end"
        }
    }

    static func hex<T: FixedWidthInteger>(_ v: T) -> String {
        let digits = String(v, radix: 16)
        return "0x" + String(repeating: "0", count: max(0, MemoryLayout<T>.size * 2 - digits.count)) + digits
    }
}

/// Why a byte cannot be part of a gzip header.
struct GzipHeaderProblem: Error {
    var message: String
}
