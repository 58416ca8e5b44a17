import DAQCore

/// Moves rows of a batch column into a column buffer, converting to the column's type.
///
/// Unboxed storages whose rows all have the field go in whole slices; anything else row by
/// row, still without boxing numbers. A value the column's type cannot hold (text in a DOUBLE
/// column) becomes null: the descriptor, not the value, decides the type.
enum ParquetColumnFeed {
    static func append(_ column: Column?, rows: Range<Int>, to buffer: ParquetColumnBuffer) {
        guard let column else { return buffer.appendNull(count: rows.count) }
        let whole = column.absent == nil
        switch (buffer.schema.type, column.storage) {
        case (.double, .doubles(let a)) where whole: buffer.append(doubles: a[rows])
        case (.double, _):
            for r in rows {
                if !column.isAbsent(r), let d = column.double(at: r) {
                    buffer.append(double: d)
                } else {
                    buffer.appendNull()
                }
            }
        case (.int64, .ints(let a)) where whole: buffer.append(ints: a[rows])
        case (.int64, _):
            for r in rows { appendInt(column, r, to: buffer) }
        case (.boolean, .bools(let a)) where whole: buffer.append(bools: a[rows])
        case (.boolean, _):
            for r in rows {
                if !column.isAbsent(r), case .bool(let b) = column[r] {
                    buffer.append(bool: b)
                } else {
                    buffer.appendNull()
                }
            }
        case (.byteArray, .strings(let a)) where whole && buffer.isText: buffer.append(strings: a[rows])
        case (.byteArray, _):
            for r in rows { appendBytes(column, r, to: buffer) }
        }
    }

    private static func appendInt(_ column: Column, _ r: Int, to buffer: ParquetColumnBuffer) {
        guard !column.isAbsent(r) else { return buffer.appendNull() }
        switch column[r] {
        case .int(let i): buffer.append(int: i)
        case .double(let d) where d.rounded() == d && abs(d) < 9.2e18: buffer.append(int: Int64(d))
        default: buffer.appendNull()
        }
    }

    private static func appendBytes(_ column: Column, _ r: Int, to buffer: ParquetColumnBuffer) {
        guard !column.isAbsent(r) else { return buffer.appendNull() }
        let value = column[r]
        if !buffer.isText {
            switch value {
            case .bytes(let b): buffer.append(bytes: b)
            case .string(let s): buffer.append(bytes: Array(s.utf8))
            default: buffer.appendNull()
            }
            return
        }
        switch value {
        case .null: buffer.appendNull()
        case .string(let s): buffer.append(string: s)
        case .bytes(let b):
            var hex: [UInt8] = []
            NumberFormatting.appendHex(b, to: &hex)
            buffer.append(string: String(decoding: hex, as: UTF8.self))
        default:
            // Numbers in a mixed column, arrays and objects: their JSON text, as the CSV logger writes it.
            var text: [UInt8] = []
            JSONEncoding.append(value, to: &text)
            buffer.append(string: String(decoding: text, as: UTF8.self))
        }
    }
}
