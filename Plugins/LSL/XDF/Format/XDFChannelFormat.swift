import DAQCore

/// The value type of every channel of an XDF stream, as its header's `channel_format` names it.
public enum XDFChannelFormat: String, Sendable, CaseIterable {
    case float32, double64, string, int8, int16, int32, int64

    /// Bytes per value in a Samples chunk; 0 for text, which carries its own length.
    public var width: Int {
        switch self {
        case .int8: return 1
        case .int16: return 2
        case .float32, .int32: return 4
        case .double64, .int64: return 8
        case .string: return 0
        }
    }

    /// The type a descriptor gives the channels' fields: floats are doubles (float32 widens
    /// exactly), every integer width is an int.
    public var fieldType: FieldType {
        switch self {
        case .float32, .double64: return .double
        case .int8, .int16, .int32, .int64: return .int
        case .string: return .string
        }
    }

    /// Whether values are integers.
    public var isInteger: Bool { fieldType == .int }
}
