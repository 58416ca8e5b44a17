import DAQCore
import NIOCore

/// Rows in PostgreSQL's binary `COPY` format: a header, one tuple per row (field count, then
/// each value as a length and its bytes in the column's binary form, -1 for null), a trailer.
///
/// Binary, not text: doubles and times go as their 8 bytes, so the server parses nothing and
/// no value is rounded through its decimal text.
enum PostgresCopyEncoder {
    /// `PGCOPY\n\xFF\r\n\0`, no flags, no header extension.
    static func appendHeader(to buffer: inout ByteBuffer) {
        buffer.writeBytes([0x50, 0x47, 0x43, 0x4F, 0x50, 0x59, 0x0A, 0xFF, 0x0D, 0x0A, 0x00])
        buffer.writeInteger(Int32(0))
        buffer.writeInteger(Int32(0))
    }

    /// The end of the data: a field count of -1.
    static func appendTrailer(to buffer: inout ByteBuffer) {
        buffer.writeInteger(Int16(-1))
    }

    /// Seconds between 1970-01-01 and 2000-01-01, PostgreSQL's epoch for timestamps.
    static let postgresEpoch = 946_684_800.0

    /// Appends rows `rows` of `batch` (data, events and markers alike) with `columns`.
    /// - Parameter plan: for each column after the fixed ones, the batch column holding it.
    static func append(
        _ batch: Batch, rows: Range<Int>, columns: [PostgresColumn], plan: [Int?], to buffer: inout ByteBuffer
    ) {
        let count = Int16(columns.count)
        let markerColumn = batch.columnIndex(StreamDescriptor.markerField.name).map { batch.columns[$0] }
        let fixed = PostgresTableLayout.fixed.count
        let stream = Array(batch.stream.utf8)
        for r in rows {
            buffer.writeInteger(count)
            // time, uptime and step in the table's own types (an existing table may differ).
            appendDouble(batch.timestamps[r], as: columns[0].type, to: &buffer)
            appendDouble(batch.uptimes[r], as: columns[1].type, to: &buffer)
            appendText(batch.stepPaths[r], to: &buffer)
            let kind = batch.kinds[r]
            appendText(kind == .marker ? "marker" : kind == .event ? "event" : "data", to: &buffer)
            if let m = markerColumn, !m.isAbsent(r), case .string(let text) = m[r] {
                appendText(text, to: &buffer)
            } else if kind == .marker {
                appendText("step", to: &buffer)
            } else {
                buffer.writeInteger(Int32(-1))
            }
            buffer.writeInteger(Int32(stream.count))
            buffer.writeBytes(stream)
            for (i, source) in plan.enumerated() {
                guard kind != .marker, let source, !batch.columns[source].isAbsent(r) else {
                    buffer.writeInteger(Int32(-1))
                    continue
                }
                appendValue(batch.columns[source], row: r, type: columns[fixed + i].type, to: &buffer)
            }
        }
    }

    /// A number of seconds (time) or a double (uptime) in the column's type.
    private static func appendDouble(_ d: Double, as type: PostgresColumnType, to buffer: inout ByteBuffer) {
        switch type {
        case .timestamptz:
            let us = ((d - postgresEpoch) * 1_000_000).rounded()
            buffer.writeInteger(Int32(8))
            buffer.writeInteger(us.isFinite && abs(us) < 9.2e18 ? Int64(us) : 0)
        case .float4:
            buffer.writeInteger(Int32(4))
            buffer.writeInteger(Float(d).bitPattern)
        default:
            buffer.writeInteger(Int32(8))
            buffer.writeInteger(d.bitPattern)
        }
    }

    /// A null: length -1, no bytes.
    private static func appendNull(to buffer: inout ByteBuffer) {
        buffer.writeInteger(Int32(-1))
    }

    private static func appendText(_ s: String, to buffer: inout ByteBuffer) {
        let lengthAt = buffer.writerIndex
        buffer.writeInteger(Int32(0))
        let n = buffer.writeString(s)
        buffer.setInteger(Int32(n), at: lengthAt)
    }

    private static func appendBytes(_ b: [UInt8], to buffer: inout ByteBuffer) {
        buffer.writeInteger(Int32(b.count))
        buffer.writeBytes(b)
    }

    /// One field value in its column's type; a value the type cannot hold (text in a number
    /// column) is null: the column's type, not the value, decides.
    private static func appendValue(_ column: Column, row r: Int, type: PostgresColumnType, to buffer: inout ByteBuffer)
    {
        switch type {
        case .float8, .float4:
            if case .doubles(let a) = column.storage {
                appendDouble(a[r], as: type, to: &buffer)
            } else if let d = column.double(at: r) {
                appendDouble(d, as: type, to: &buffer)
            } else {
                buffer.writeInteger(Int32(-1))
            }
        case .int8, .int4, .int2:
            let i: Int64?
            switch column.storage {
            case .ints(let a): i = a[r]
            default:
                switch column[r] {
                case .int(let v): i = v
                case .double(let d) where d.rounded() == d && abs(d) < 9.2e18: i = Int64(d)
                default: i = nil
                }
            }
            guard let i else { return appendNull(to: &buffer) }
            switch type {
            case .int4 where Int32(exactly: i) != nil:
                buffer.writeInteger(Int32(4))
                buffer.writeInteger(Int32(i))
            case .int2 where Int16(exactly: i) != nil:
                buffer.writeInteger(Int32(2))
                buffer.writeInteger(Int16(i))
            case .int8:
                buffer.writeInteger(Int32(8))
                buffer.writeInteger(i)
            default:
                buffer.writeInteger(Int32(-1))
            }
        case .bool:
            guard case .bool(let b) = column[r] else { return appendNull(to: &buffer) }
            buffer.writeInteger(Int32(1))
            buffer.writeInteger(UInt8(b ? 1 : 0))
        case .bytea:
            switch column[r] {
            case .bytes(let b): appendBytes(b, to: &buffer)
            case .string(let s): appendBytes(Array(s.utf8), to: &buffer)
            default: buffer.writeInteger(Int32(-1))
            }
        case .text, .varchar, .json, .jsonb:
            let value = column[r]
            if case .null = value { return appendNull(to: &buffer) }
            var text: [UInt8] = []
            switch (type, value) {
            case (.text, .string(let s)), (.varchar, .string(let s)):
                return appendText(s, to: &buffer)
            case (.text, .bytes(let b)), (.varchar, .bytes(let b)):
                NumberFormatting.appendHex(b, to: &text)
            default:
                // Numbers in a text column, arrays and objects: their JSON text, as the CSV
                // logger writes them; a json or jsonb column takes every value as JSON.
                JSONEncoding.append(value, to: &text)
            }
            if type == .jsonb {
                // jsonb's binary form: a version byte, then the text.
                buffer.writeInteger(Int32(text.count + 1))
                buffer.writeInteger(UInt8(1))
                buffer.writeBytes(text)
            } else {
                appendBytes(text, to: &buffer)
            }
        case .timestamptz:
            guard let d = column.double(at: r) else { return appendNull(to: &buffer) }
            appendDouble(d, as: .timestamptz, to: &buffer)
        }
    }
}
