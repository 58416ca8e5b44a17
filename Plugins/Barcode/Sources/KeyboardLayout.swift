import DAQCore

/// Which characters a keyboard-wedge scanner's key codes stand for: the scanner types as if on
/// a keyboard of this layout, so the layout must match the one it is set to.
public enum KeyboardLayout: String, ConfigEnum, Sendable {
    case us, de

    /// The character of Linux key `code` (input-event-codes.h), with or without Shift.
    func character(_ code: UInt16, shift: Bool) -> UInt8? {
        let table = self == .us ? Self.usKeys : Self.deKeys
        guard let pair = table[code] else { return nil }
        let c = shift ? pair.1 : pair.0
        return c == 0 ? nil : c
    }

    /// Ctrl with this key types GS (0x1D): the key right of P, `]` on US keyboards, `+` on German.
    var groupSeparatorKey: UInt16 { 27 }

    private static func table(_ rows: [(UInt16, String, String)]) -> [UInt16: (UInt8, UInt8)] {
        var t: [UInt16: (UInt8, UInt8)] = [:]
        for (first, plain, shifted) in rows {
            for (i, (p, s)) in zip(plain.utf8, shifted.utf8).enumerated() { t[first + UInt16(i)] = (p, s) }
        }
        t[57] = (0x20, 0x20)  // space
        t[15] = (0x09, 0x09)  // tab
        // Keypad: digits and operators, the same with or without Shift.
        for (code, ch) in [
            (71, "7"), (72, "8"), (73, "9"), (74, "-"), (75, "4"), (76, "5"), (77, "6"), (78, "+"),
            (79, "1"), (80, "2"), (81, "3"), (82, "0"), (83, "."), (55, "*"), (98, "/"),
        ] as [(UInt16, String)] {
            let b = ch.utf8.first!
            t[code] = (b, b)
        }
        return t
    }

    static let usKeys = table([
        (2, "1234567890-=", "!@#$%^&*()_+"),
        (16, "qwertyuiop[]", "QWERTYUIOP{}"),
        (30, "asdfghjkl;'`", "ASDFGHJKL:\"~"),
        (43, "\\zxcvbnm,./", "|ZXCVBNM<>?"),
    ])

    /// German QWERTZ, ASCII only (umlauts and ß are not in codes scanners send).
    static let deKeys = table([
        (2, "1234567890", "!\"\u{0}$%&/()="),  // Shift+3 is §, which no scanner sends
        (16, "qwertzuiop", "QWERTZUIOP"),
        (27, "+", "*"),
        (30, "asdfghjkl", "ASDFGHJKL"),
        (41, "^", "\u{0}"),
        (43, "#yxcvbnm,.-", "'YXCVBNM;:_"),
        (86, "<", ">"),
    ])
}

/// Decodes Linux `input_event` records (24 bytes on 64-bit: timeval, type, code, value) from a
/// keyboard-wedge scanner into the bytes it typed: Shift applied, Enter as LF, Ctrl+] as GS.
struct InputEventDecoder {
    static let recordSize = 24
    static let evKey: UInt16 = 1
    let layout: KeyboardLayout
    private var partial: [UInt8] = []
    private var shift = false
    private var ctrl = false
    /// Key presses that map to no character in the layout.
    private(set) var unmapped = 0

    init(layout: KeyboardLayout) {
        self.layout = layout
    }

    /// Decodes whole records; a record split across reads waits for its rest.
    mutating func decode(_ bytes: UnsafeRawBufferPointer, into out: inout [UInt8]) {
        var data = bytes[...]
        if !partial.isEmpty {
            let need = Self.recordSize - partial.count
            partial.append(contentsOf: data.prefix(need))
            data = data.dropFirst(need)
            guard partial.count == Self.recordSize else { return }
            let record = partial
            partial.removeAll()
            record.withUnsafeBytes { key($0, into: &out) }
        }
        while data.count >= Self.recordSize {
            key(UnsafeRawBufferPointer(rebasing: data.prefix(Self.recordSize)), into: &out)
            data = data.dropFirst(Self.recordSize)
        }
        partial.append(contentsOf: data)
    }

    private mutating func key(_ record: UnsafeRawBufferPointer, into out: inout [UInt8]) {
        let type = record.loadUnaligned(fromByteOffset: 16, as: UInt16.self)
        guard type == Self.evKey else { return }
        let code = record.loadUnaligned(fromByteOffset: 18, as: UInt16.self)
        let value = record.loadUnaligned(fromByteOffset: 20, as: Int32.self)
        switch code {
        case 42, 54: shift = value != 0
        case 29, 97: ctrl = value != 0
        default:
            guard value == 1 || value == 2 else { return }
            if code == 28 || code == 96 {
                out.append(0x0A)
            } else if ctrl && code == layout.groupSeparatorKey {
                out.append(0x1D)
            } else if let c = layout.character(code, shift: shift) {
                out.append(c)
            } else {
                unmapped += 1
            }
        }
    }
}
