/// RFC 4180 records as byte ranges: a record ends at a line break outside quotes, so a quoted
/// cell may hold commas and line breaks. A `\r` before the break is not part of the record.
enum CSVRecords {
    static func split(_ bytes: [UInt8]) -> [Range<Int>] {
        var out: [Range<Int>] = []
        var quoted = false
        var start = 0
        for (i, b) in bytes.enumerated() {
            if b == UInt8(ascii: "\"") {
                quoted.toggle()  // a doubled quote inside a cell toggles twice
            } else if b == UInt8(ascii: "\n"), !quoted {
                out.append(start..<(i > start && bytes[i - 1] == 13 ? i - 1 : i))
                start = i + 1
            }
        }
        if start < bytes.count { out.append(start..<bytes.count) }
        return out
    }

    /// The cells of one header row, unquoted (headers of field names rarely need quoting).
    static func cells(_ row: [UInt8]) -> [String] {
        var cells: [String] = []
        var cell: [UInt8] = []
        var quoted = false
        var i = 0
        while i < row.count {
            let b = row[i]
            if b == UInt8(ascii: "\"") {
                if quoted, i + 1 < row.count, row[i + 1] == UInt8(ascii: "\"") {
                    cell.append(b)
                    i += 1
                } else {
                    quoted.toggle()
                }
            } else if b == UInt8(ascii: ","), !quoted {
                cells.append(String(decoding: cell, as: UTF8.self))
                cell = []
            } else {
                cell.append(b)
            }
            i += 1
        }
        cells.append(String(decoding: cell, as: UTF8.self))
        return cells
    }

    /// Where two headers part: the first column that differs, or which one is longer.
    static func difference(expected: [UInt8], found: [UInt8]) -> String {
        let a = cells(expected)
        let b = cells(found)
        for i in 0..<min(a.count, b.count) where a[i] != b[i] {
            return "column \(i + 1) is '\(b[i])', expected '\(a[i])'"
        }
        return a.count < b.count
            ? "\(b.count) columns, expected \(a.count) (extra: \(b[a.count...].joined(separator: ",")))"
            : "\(b.count) columns, expected \(a.count) (missing: \(a[b.count...].joined(separator: ",")))"
    }

    /// One CSV cell holding `text`, quoted when it has to be.
    static func cell(_ text: String) -> [UInt8] {
        let bytes = Array(text.utf8)
        guard bytes.contains(where: { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == 10 || $0 == 13 })
        else { return bytes }
        var out: [UInt8] = [UInt8(ascii: "\"")]
        for b in bytes {
            if b == UInt8(ascii: "\"") { out.append(b) }
            out.append(b)
        }
        out.append(UInt8(ascii: "\""))
        return out
    }
}

/// A JSON string literal for a recording's name.
enum JSONString {
    static func quoted(_ text: String) -> [UInt8] {
        var out: [UInt8] = [UInt8(ascii: "\"")]
        for b in text.utf8 {
            switch b {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"):
                out += [UInt8(ascii: "\\"), b]
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                out += Array("\\u00".utf8) + [hex[Int(b >> 4)], hex[Int(b & 15)]]
            default:
                out.append(b)
            }
        }
        out.append(UInt8(ascii: "\""))
        return out
    }
}
