/// Encodes a column buffer as a column chunk: an optional dictionary page, then data pages
/// (v1) of at most ``pageRows`` rows each, every page body compressed on its own.
enum ParquetChunkEncoder {
    /// Rows per data page: pages of about a megabyte of doubles, so a reader that skips by
    /// page index (or one decoding a page at a time) never holds a whole row group.
    static let pageRows = 131_072

    /// Appends the chunk of `buffer` to `out` (whose first byte is at file offset `offset`) and
    /// returns its metadata.
    static func encode(
        _ buffer: ParquetColumnBuffer, compressor: PageCompressor, offset: Int64, to out: inout [UInt8]
    ) throws -> ParquetColumnChunkInfo {
        let start = out.count
        var uncompressed: Int64 = 0
        var dictionaryOffset: Int64?
        let encodings: [ParquetEncoding]
        let dictionary = ParquetDictionary.of(buffer)
        if let dictionary {
            dictionaryOffset = offset + Int64(out.count - start)
            uncompressed += try appendPage(
                .dictionary(valueCount: Int32(dictionary.count)), body: dictionary.page, compressor: compressor,
                to: &out)
            encodings = [.plain, .rle, .rleDictionary]
        } else {
            encodings = [.plain, .rle]
        }
        let dataOffset = offset + Int64(out.count - start)
        var valueStart = 0
        var row = 0
        var body: [UInt8] = []
        repeat {
            let rows = min(pageRows, buffer.rowCount - row)
            body.removeAll(keepingCapacity: true)
            let values = appendLevels(buffer, rows: row..<(row + rows), to: &body)
            let range = valueStart..<(valueStart + values)
            if let dictionary {
                appendIndices(dictionary, range, to: &body)
            } else {
                appendPlain(buffer, range, to: &body)
            }
            uncompressed += try appendPage(
                .data(valueCount: Int32(rows), encoding: dictionary == nil ? .plain : .rleDictionary), body: body,
                compressor: compressor, to: &out)
            valueStart += values
            row += rows
        } while row < buffer.rowCount
        return ParquetColumnChunkInfo(
            column: buffer.schema, codec: compressor.codec, encodings: encodings, valueCount: Int64(buffer.rowCount),
            uncompressedSize: uncompressed, compressedSize: Int64(out.count - start), dataPageOffset: dataOffset,
            dictionaryPageOffset: dictionaryOffset, statistics: .of(buffer))
    }

    /// Appends header and compressed body; returns the page's uncompressed size, header included.
    private static func appendPage(
        _ kind: ParquetPageHeader.Kind, body: [UInt8], compressor: PageCompressor, to out: inout [UInt8]
    ) throws -> Int64 {
        let compressed = try compressor.compress(body)
        let header = ParquetPageHeader(
            kind: kind, uncompressedSize: Int32(body.count), compressedSize: Int32(compressed.count)
        ).encoded()
        out.append(contentsOf: header)
        out.append(contentsOf: compressed)
        return Int64(header.count + body.count)
    }

    /// Appends the definition levels of `rows` (length-prefixed, as data page v1 has them) and
    /// returns how many of the rows hold a value.
    private static func appendLevels(_ buffer: ParquetColumnBuffer, rows: Range<Int>, to body: inout [UInt8]) -> Int {
        guard buffer.schema.optional else { return rows.count }
        let lengthAt = body.count
        body.append(contentsOf: [0, 0, 0, 0])
        RLEHybrid.encode(levels: buffer.levels[rows], bitWidth: 1, to: &body)
        let length = UInt32(body.count - lengthAt - 4)
        for i in 0..<4 { body[lengthAt + i] = UInt8(truncatingIfNeeded: length >> (8 * i)) }
        var present = 0
        for l in buffer.levels[rows] where l != 0 { present += 1 }
        return present
    }

    private static func appendIndices(_ dictionary: ParquetDictionary, _ range: Range<Int>, to body: inout [UInt8]) {
        let width = RLEHybrid.bitWidth(forMax: UInt32(max(0, dictionary.count - 1)))
        body.append(UInt8(width))
        dictionary.indices[range].withUnsafeBufferPointer { RLEHybrid.encode($0, bitWidth: width, to: &body) }
    }

    /// PLAIN: little-endian numbers, booleans one bit each LSB first, byte arrays length-prefixed.
    private static func appendPlain(_ buffer: ParquetColumnBuffer, _ range: Range<Int>, to body: inout [UInt8]) {
        switch buffer.schema.type {
        case .double:
            buffer.doubles[range].withUnsafeBytes { body.append(contentsOf: $0) }
        case .int64:
            buffer.ints[range].withUnsafeBytes { body.append(contentsOf: $0) }
        case .boolean:
            var byte: UInt8 = 0
            var bit = 0
            for b in buffer.bools[range] {
                if b { byte |= 1 << bit }
                bit += 1
                if bit == 8 {
                    body.append(byte)
                    byte = 0
                    bit = 0
                }
            }
            if bit > 0 { body.append(byte) }
        case .byteArray:
            if buffer.isText {
                for i in buffer.indices[range] { appendByteArray(buffer.entries[Int(i)], to: &body) }
            } else {
                for b in buffer.binaries[range] { appendByteArray(b, to: &body) }
            }
        }
    }

    private static func appendByteArray(_ s: String, to body: inout [UInt8]) {
        let count = s.utf8.count
        appendLength(count, to: &body)
        var copy = s
        copy.withUTF8 { body.append(contentsOf: $0) }
    }

    private static func appendByteArray(_ b: [UInt8], to body: inout [UInt8]) {
        appendLength(b.count, to: &body)
        body.append(contentsOf: b)
    }

    private static func appendLength(_ count: Int, to body: inout [UInt8]) {
        for i in 0..<4 { body.append(UInt8(truncatingIfNeeded: count >> (8 * i))) }
    }
}
