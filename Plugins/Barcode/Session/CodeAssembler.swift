import DAQCore

/// What ends a code on a byte stream.
public enum Terminator: Sendable, Hashable, ConfigValue {
    /// CR, LF or CR LF: what most scanners send, whichever they are set to.
    case any
    case cr, lf, crlf
    /// One configured byte (a scanner set to send, say, ETX 0x03).
    case byte(UInt8)

    public static var configType: String { "any | cr | lf | crlf | byte" }

    public var configText: String? {
        switch self {
        case .any: "any"
        case .cr: "cr"
        case .lf: "lf"
        case .crlf: "crlf"
        case .byte(let b): String(b)
        }
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        if let n = try? c.decode(Int.self) {
            guard (0...255).contains(n) else {
                throw ConfigIssue(key: "", "expected a byte value 0…255, found \(n)")
            }
            self = .byte(UInt8(n))
            return
        }
        let s = try c.decode(String.self)
        switch s.lowercased() {
        case "any": self = .any
        case "cr": self = .cr
        case "lf": self = .lf
        case "crlf": self = .crlf
        default:
            if s.hasPrefix("0x"), let n = UInt8(s.dropFirst(2), radix: 16) {
                self = .byte(n)
            } else {
                throw ConfigIssue(key: "", "expected any, cr, lf, crlf or a byte such as 0x03, found '\(s)'")
            }
        }
    }
}

/// Cuts a scanner's byte stream into codes, in a buffer of bounded size.
///
/// Bytes of a code that never ends are not kept without limit: past `maxLength` the code is
/// reported overlong and the bytes up to the next terminator are dropped.
struct CodeAssembler {
    enum Piece: Equatable {
        /// The first byte of a new code arrived (a continuous session starts here).
        case started
        /// A whole code, terminator removed.
        case code([UInt8])
        /// A code ran past `maxLength` bytes without a terminator.
        case overlong(Int)
    }

    let terminator: Terminator
    let maxLength: Int
    private var buffer: [UInt8] = []
    private var skipping = false
    private var skipped = 0
    private var lastWasCR = false

    init(terminator: Terminator, maxLength: Int) {
        self.terminator = terminator
        self.maxLength = maxLength
        buffer.reserveCapacity(min(maxLength, 4096))
    }

    /// Whether part of a code is waiting for its terminator.
    var inCode: Bool { !buffer.isEmpty || skipping }

    /// Drops a partial code (the device went away mid-code) and says how many bytes it held.
    mutating func reset() -> Int {
        defer {
            buffer.removeAll(keepingCapacity: true)
            skipping = false
            skipped = 0
            lastWasCR = false
        }
        return buffer.count + skipped
    }

    /// Feeds bytes; `emit` receives each piece in order.
    mutating func feed(_ bytes: UnsafeRawBufferPointer, _ emit: (Piece) -> Void) {
        for b in bytes {
            let wasCR = lastWasCR
            lastWasCR = b == 0x0D
            let ends: Bool
            switch terminator {
            case .any: ends = b == 0x0D || b == 0x0A
            case .cr: ends = b == 0x0D
            case .lf: ends = b == 0x0A
            case .crlf:
                if b == 0x0A && wasCR {
                    ends = true
                } else {
                    if wasCR { add(0x0D, emit) }  // a lone CR was data
                    if b == 0x0D { continue }
                    ends = false
                }
            case .byte(let t): ends = b == t
            }
            if ends {
                if skipping {
                    skipping = false
                    skipped = 0
                } else if !buffer.isEmpty {
                    emit(.code(buffer))
                    buffer.removeAll(keepingCapacity: true)
                }
                continue
            }
            add(b, emit)
        }
    }

    private mutating func add(_ b: UInt8, _ emit: (Piece) -> Void) {
        if skipping {
            skipped += 1
            return
        }
        if buffer.isEmpty { emit(.started) }
        if buffer.count >= maxLength {
            emit(.overlong(buffer.count + 1))
            skipped = buffer.count + 1
            buffer.removeAll(keepingCapacity: true)
            skipping = true
            return
        }
        buffer.append(b)
    }
}
