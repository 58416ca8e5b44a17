/// The kinds of chunk an XDF file holds, by the tag the specification gives them.
public enum XDFChunkTag: UInt16, Sendable {
    case fileHeader = 1
    case streamHeader = 2
    case samples = 3
    case clockOffset = 4
    case boundary = 5
    case streamFooter = 6

    /// Whether the chunk's content starts with the 4-byte id of the stream it belongs to.
    public var hasStreamID: Bool {
        switch self {
        case .streamHeader, .samples, .clockOffset, .streamFooter: return true
        case .fileHeader, .boundary: return false
        }
    }

    /// The name the specification gives it, for messages.
    public var name: String {
        switch self {
        case .fileHeader: return "FileHeader"
        case .streamHeader: return "StreamHeader"
        case .samples: return "Samples"
        case .clockOffset: return "ClockOffset"
        case .boundary: return "Boundary"
        case .streamFooter: return "StreamFooter"
        }
    }

    /// The 16 bytes of every Boundary chunk: a reader that meets damage searches for them to
    /// go on at the next chunk after it.
    public static let boundarySignature: [UInt8] = [
        0x43, 0xA5, 0x46, 0xDC, 0xCB, 0xF5, 0x41, 0x0F, 0xB3, 0x0E, 0xD5, 0x46, 0x73, 0x83, 0xCB, 0xE4,
    ]
}
