import DAQCore

/// The beacon formats found in one report, in order, for the `frames` field.
///
/// Nearly every report carries exactly one frame, and building a one-element array for it
/// cost an allocation per report; the first frame is kept apart, and each built-in format's
/// one-element array is made once and shared by every report that carries only it.
struct FrameList {
    /// A beacon format: the built-in ones by case, a declarative decoder's by name.
    enum Frame {
        case ibeacon, altbeacon, ruuviRAWv2
        case eddystoneUID, eddystoneURL, eddystoneTLM, eddystoneEID, eddystoneUnknown
        case named(String)

        var name: String {
            switch self {
            case .ibeacon: return "ibeacon"
            case .altbeacon: return "altbeacon"
            case .ruuviRAWv2: return "ruuvi.rawv2"
            case .eddystoneUID: return "eddystone.uid"
            case .eddystoneURL: return "eddystone.url"
            case .eddystoneTLM: return "eddystone.tlm"
            case .eddystoneEID: return "eddystone.eid"
            case .eddystoneUnknown: return "eddystone.unknown"
            case .named(let name): return name
            }
        }

        /// The position of a built-in format in ``FrameList/alone``.
        fileprivate var builtIn: Int? {
            switch self {
            case .ibeacon: return 0
            case .altbeacon: return 1
            case .ruuviRAWv2: return 2
            case .eddystoneUID: return 3
            case .eddystoneURL: return 4
            case .eddystoneTLM: return 5
            case .eddystoneEID: return 6
            case .eddystoneUnknown: return 7
            case .named: return nil
            }
        }
    }

    /// `frames` of a report that carries only that built-in format, by ``Frame/builtIn``.
    private static let alone: [Value] = [
        Frame.ibeacon, .altbeacon, .ruuviRAWv2, .eddystoneUID, .eddystoneURL, .eddystoneTLM, .eddystoneEID,
        .eddystoneUnknown,
    ].map { .array([.string($0.name)]) }

    private var first: Frame?
    private var more: [Value] = []

    var isEmpty: Bool { first == nil }

    mutating func append(_ frame: Frame) {
        if first == nil { first = frame } else { more.append(.string(frame.name)) }
    }

    /// The `frames` field: the names of the formats, in the order found.
    var value: Value {
        guard let first else { return .array([]) }
        if more.isEmpty, let i = first.builtIn { return Self.alone[i] }
        return .array([.string(first.name)] + more)
    }
}
