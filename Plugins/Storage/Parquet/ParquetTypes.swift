/// The enums of Parquet's `parquet.thrift` that DAQKit writes, with the numbers the format gives them.
enum ParquetPhysicalType: Int32, Sendable {
    case boolean = 0
    case int64 = 2
    case double = 5
    case byteArray = 6

    /// The name readers print (`DOUBLE`, `BYTE_ARRAY`), for `daq inspect`.
    var name: String {
        switch self {
        case .boolean: "BOOLEAN"
        case .int64: "INT64"
        case .double: "DOUBLE"
        case .byteArray: "BYTE_ARRAY"
        }
    }
}

/// How the values of a page are encoded.
enum ParquetEncoding: Int32, Sendable {
    case plain = 0
    case rle = 3
    case rleDictionary = 8
}

/// The compression codec of every page of a column chunk.
enum ParquetCodec: Int32, Sendable {
    case uncompressed = 0
    case gzip = 2
    case zstd = 6

    /// The name readers print.
    var name: String {
        switch self {
        case .uncompressed: "UNCOMPRESSED"
        case .gzip: "GZIP"
        case .zstd: "ZSTD"
        }
    }
}

/// The kind of page a page header introduces.
enum ParquetPageType: Int32, Sendable {
    case dataPage = 0
    case dictionaryPage = 2
}

/// What a BYTE_ARRAY or INT64 column means beyond its physical type.
enum ParquetLogicalType: Sendable, Equatable {
    /// UTF-8 text (`LogicalType.STRING`, `ConvertedType.UTF8`).
    case string
    /// Microseconds since 1970 in UTC (`TIMESTAMP(isAdjustedToUTC=true, MICROS)`).
    case timestampMicrosUTC

    /// The deprecated `ConvertedType` that old readers look at instead.
    var convertedType: Int32 {
        switch self {
        case .string: 0  // UTF8
        case .timestampMicrosUTC: 10  // TIMESTAMP_MICROS
        }
    }

    /// Writes the `LogicalType` union.
    func encode(into w: inout ThriftCompactWriter) {
        switch self {
        case .string: w.field(1, emptyStruct: ())
        case .timestampMicrosUTC:
            w.field(8) { t in
                t.field(1, bool: true)
                // TimeUnit is a union: MICROS is its member 2, an empty struct.
                t.field(2) { unit in unit.field(2, emptyStruct: ()) }
            }
        }
    }
}
