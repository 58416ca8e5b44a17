import DAQCore
import NIOCore

/// A sealed flush as the `postgres` sink keeps it in its spool, so that a run killed while the
/// server was away leaves its flushes for the next run to commit, under their own run id and
/// number (``PostgresFlushOrigin``): one that did go in before is met by its bookkeeping row.
///
/// The record's key is the run id and its options the layout: `0xFF01`, whose first byte is no
/// MQTT QoS, so an `mqtt` sink pointed at this directory refuses the records rather than
/// publish them. Its payload, all big-endian: `i64 sequence`, the server (as
/// ``PostgresTarget/display`` names it), the component and the table (`u16` length, UTF-8
/// each), the columns, then the added columns (`u16` count; each `u8` type length, type,
/// `u8` required, `u16` name length, name), then the binary `COPY` data to the end.
enum PostgresSpooledFlush {
    static let version: UInt16 = 0xFF01

    /// The spool record of `flush` for `server`, appended to `out`.
    static func append(_ flush: PostgresFlush, server: String, spoolSequence: UInt64, to out: inout [UInt8]) {
        var header: [UInt8] = []
        put(UInt64(bitPattern: flush.sequence), &header)
        put(server, &header)
        put(flush.origin.component, &header)
        put(flush.origin.table, &header)
        put(flush.columns, &header)
        put(flush.added, &header)
        header.append(contentsOf: flush.payload.readableBytesView)
        header.withUnsafeBytes {
            SpoolRecords.append(
                sequence: spoolSequence, key: flush.origin.runID, options: version, samples: flush.rows,
                payload: $0, to: &out)
        }
    }

    /// The flush a spool record holds, and the server it was sealed for.
    /// - Throws: ``SpoolError`` naming the record when its layout is not this one or its bytes
    ///   end early.
    static func flush(from message: MessageSpool.Message, spool: String) throws -> (PostgresFlush, server: String) {
        let damaged = SpoolError("the spool \(spool) is damaged: flush record \(message.sequence) cannot be read")
        guard message.options == version else {
            throw SpoolError(
                "the spool \(spool) holds a record of layout \(message.options), not a postgres flush this daq can read"
            )
        }
        var reader = Reader(bytes: message.payload)
        guard let sequence = reader.u64(), let server = reader.string(), let component = reader.string(),
            let table = reader.string(), let columns = reader.columns(), let added = reader.columns()
        else { throw damaged }
        var payload = ByteBufferAllocator().buffer(capacity: message.payload.count - reader.offset)
        payload.writeBytes(message.payload[reader.offset...])
        let flush = PostgresFlush(
            origin: PostgresFlushOrigin(runID: message.key, component: component, table: table),
            sequence: Int64(bitPattern: sequence), rows: message.samples, columns: columns, added: added,
            payload: payload, spooled: message.sequence)
        return (flush, server)
    }

    private static func put(_ v: UInt64, _ out: inout [UInt8]) {
        withUnsafeBytes(of: v.bigEndian) { out.append(contentsOf: $0) }
    }

    private static func put(_ s: String, _ out: inout [UInt8]) {
        withUnsafeBytes(of: UInt16(s.utf8.count).bigEndian) { out.append(contentsOf: $0) }
        out.append(contentsOf: s.utf8)
    }

    private static func put(_ columns: [PostgresColumn], _ out: inout [UInt8]) {
        withUnsafeBytes(of: UInt16(columns.count).bigEndian) { out.append(contentsOf: $0) }
        for c in columns {
            out.append(UInt8(c.type.rawValue.utf8.count))
            out.append(contentsOf: c.type.rawValue.utf8)
            out.append(c.required ? 1 : 0)
            put(c.name, &out)
        }
    }

    /// Reads the payload front to back; each read is `nil` past the end.
    private struct Reader {
        let bytes: [UInt8]
        var offset = 0

        mutating func take(_ n: Int) -> ArraySlice<UInt8>? {
            guard n >= 0, offset + n <= bytes.count else { return nil }
            defer { offset += n }
            return bytes[offset..<offset + n]
        }

        mutating func u64() -> UInt64? {
            take(8)?.reduce(0) { $0 << 8 | UInt64($1) }
        }

        mutating func u16() -> Int? {
            take(2).map { Int($0.reduce(0) { $0 << 8 | UInt16($1) }) }
        }

        mutating func string() -> String? {
            guard let n = u16(), let b = take(n) else { return nil }
            return String(decoding: b, as: UTF8.self)
        }

        mutating func columns() -> [PostgresColumn]? {
            guard let count = u16() else { return nil }
            var result: [PostgresColumn] = []
            for _ in 0..<count {
                guard let n = take(1)?.first, let raw = take(Int(n)),
                    let type = PostgresColumnType(rawValue: String(decoding: raw, as: UTF8.self)),
                    let required = take(1)?.first, let name = string()
                else { return nil }
                result.append(PostgresColumn(name: name, type: type, required: required == 1))
            }
            return result
        }
    }
}
