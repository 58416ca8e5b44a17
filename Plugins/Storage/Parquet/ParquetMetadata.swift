/// One leaf column of a file's flat schema.
struct ParquetColumnSchema: Sendable, Equatable {
    var name: String
    var type: ParquetPhysicalType
    var logicalType: ParquetLogicalType?
    /// Whether values may be missing: such a column carries definition levels.
    var optional: Bool
}

/// Min, max and null count of one column chunk, as `Statistics` holds them: min and max are
/// PLAIN-encoded values (no length prefix for BYTE_ARRAY); absent when no value is comparable.
struct ParquetStatistics: Sendable {
    var min: [UInt8]?
    var max: [UInt8]?
    var nullCount: Int64

    func encode(into w: inout ThriftCompactWriter) {
        w.field(3, i64: nullCount)
        if let max { w.field(5, binary: max) }
        if let min { w.field(6, binary: min) }
    }
}

/// Where one column chunk sits in the file and what it holds (`ColumnChunk` + `ColumnMetaData`).
struct ParquetColumnChunkInfo: Sendable {
    var column: ParquetColumnSchema
    var codec: ParquetCodec
    var encodings: [ParquetEncoding]
    var valueCount: Int64
    var uncompressedSize: Int64
    var compressedSize: Int64
    var dataPageOffset: Int64
    var dictionaryPageOffset: Int64?
    var statistics: ParquetStatistics

    /// The offset of the chunk's first page.
    var startOffset: Int64 { dictionaryPageOffset ?? dataPageOffset }

    func encode(into w: inout ThriftCompactWriter) {
        w.field(2, i64: startOffset)
        w.field(3) { m in
            m.field(1, i32: column.type.rawValue)
            m.listField(2, of: .i32, count: encodings.count)
            for e in encodings { m.element(i32: e.rawValue) }
            m.listField(3, of: .binary, count: 1)
            m.element(string: column.name)
            m.field(4, i32: codec.rawValue)
            m.field(5, i64: valueCount)
            m.field(6, i64: uncompressedSize)
            m.field(7, i64: compressedSize)
            m.field(9, i64: dataPageOffset)
            if let dictionaryPageOffset { m.field(11, i64: dictionaryPageOffset) }
            m.field(12) { s in statistics.encode(into: &s) }
        }
    }
}

/// One row group: a column chunk per schema column, in schema order.
struct ParquetRowGroupInfo: Sendable {
    var columns: [ParquetColumnChunkInfo]
    var rowCount: Int64

    func encode(into w: inout ThriftCompactWriter) {
        w.listField(1, of: .structure, count: columns.count)
        for c in columns { w.element { c.encode(into: &$0) } }
        w.field(2, i64: columns.reduce(0) { $0 + $1.uncompressedSize })
        w.field(3, i64: rowCount)
        if let first = columns.first { w.field(5, i64: first.startOffset) }
        w.field(6, i64: columns.reduce(0) { $0 + $1.compressedSize })
    }
}

/// The footer (`FileMetaData`): the schema, every row group, and key/value metadata.
struct ParquetFileMetadata: Sendable {
    var columns: [ParquetColumnSchema]
    var rowGroups: [ParquetRowGroupInfo]
    var keyValues: [(key: String, value: String)]
    var createdBy: String

    func encoded() -> [UInt8] {
        var w = ThriftCompactWriter()
        w.field(1, i32: 1)
        w.listField(2, of: .structure, count: columns.count + 1)
        // The root of the flat schema: a group whose children are the columns.
        w.element { root in
            root.field(4, string: "schema")
            root.field(5, i32: Int32(columns.count))
        }
        for c in columns {
            w.element { e in
                e.field(1, i32: c.type.rawValue)
                e.field(3, i32: c.optional ? 1 : 0)
                e.field(4, string: c.name)
                if let logical = c.logicalType {
                    e.field(6, i32: logical.convertedType)
                    e.field(10) { logical.encode(into: &$0) }
                }
            }
        }
        w.field(3, i64: rowGroups.reduce(0) { $0 + $1.rowCount })
        w.listField(4, of: .structure, count: rowGroups.count)
        for g in rowGroups { w.element { g.encode(into: &$0) } }
        w.listField(5, of: .structure, count: keyValues.count)
        for kv in keyValues {
            w.element { e in
                e.field(1, string: kv.key)
                e.field(2, string: kv.value)
            }
        }
        w.field(6, string: createdBy)
        // TYPE_ORDER for every column: readers then trust min_value/max_value (signed for
        // numbers, unsigned bytes for text).
        w.listField(7, of: .structure, count: columns.count)
        for _ in columns { w.element { $0.field(1, emptyStruct: ()) } }
        w.endStruct()
        return w.bytes
    }
}

/// A page header (`PageHeader` with its data or dictionary header).
struct ParquetPageHeader: Sendable {
    enum Kind {
        case data(valueCount: Int32, encoding: ParquetEncoding)
        case dictionary(valueCount: Int32)
    }

    var kind: Kind
    var uncompressedSize: Int32
    var compressedSize: Int32

    func encoded() -> [UInt8] {
        var w = ThriftCompactWriter()
        switch kind {
        case .data(let count, let encoding):
            w.field(1, i32: ParquetPageType.dataPage.rawValue)
            w.field(2, i32: uncompressedSize)
            w.field(3, i32: compressedSize)
            w.field(5) { d in
                d.field(1, i32: count)
                d.field(2, i32: encoding.rawValue)
                d.field(3, i32: ParquetEncoding.rle.rawValue)
                d.field(4, i32: ParquetEncoding.rle.rawValue)
            }
        case .dictionary(let count):
            w.field(1, i32: ParquetPageType.dictionaryPage.rawValue)
            w.field(2, i32: uncompressedSize)
            w.field(3, i32: compressedSize)
            w.field(7) { d in
                d.field(1, i32: count)
                d.field(2, i32: ParquetEncoding.plain.rawValue)
            }
        }
        w.endStruct()
        return w.bytes
    }
}
