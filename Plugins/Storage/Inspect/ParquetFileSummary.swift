import DAQCore
import Foundation

/// What a Parquet file's footer says: its schema with units, row groups, rows, time span and
/// codecs. Only the footer is read, so a file of any size is summarized in a few reads.
public struct ParquetFileSummary: Sendable {
    /// One column of the schema.
    public struct Column: Sendable, Equatable {
        /// The column's name.
        public var name: String
        /// The physical type, with the logical one when there is one: `INT64 TIMESTAMP(UTC, µs)`.
        public var type: String
        /// Whether it may hold nulls (a field), as against a required column (`timestamp`).
        public var optional: Bool
        /// From the footer's `daq.units`.
        public var unit: String?
        /// Nulls over every row group, `nil` when a row group has no statistics.
        public var nullCount: Int64?
    }

    /// The file.
    public var path: String
    /// Its size.
    public var bytes: Int
    /// Rows over every row group.
    public var rows: Int64
    /// How many row groups it has.
    public var rowGroups: Int
    /// The schema's columns, in file order.
    public var columns: [Column]
    /// The codecs of the column chunks, each once: `ZSTD`.
    public var codecs: [String]
    /// The writer the footer names.
    public var createdBy: String?
    /// `daq.stream`, for a file DAQKit wrote.
    public var stream: String?
    /// The first and last `timestamp` (seconds since 1970), from its statistics.
    public var timeRange: ClosedRange<Double>?

    /// Reads the footer of the file at `path`.
    /// - Throws: ``ParquetFormatError`` when the file is not Parquet or its footer is unreadable.
    public init(path: String) throws {
        self.path = path
        let (footer, size) = try Self.footer(of: path)
        bytes = size
        var reader = ThriftCompactReader(footer)
        let meta: ThriftCompactReader.Value
        do { meta = try reader.readStruct() } catch { throw ParquetFormatError(path: path, "footer: \(error)") }
        var keyValues: [String: String] = [:]
        for kv in meta[5]?.list ?? [] {
            if let k = kv[1]?.string { keyValues[k] = kv[2]?.string ?? "" }
        }
        stream = keyValues["daq.stream"]
        createdBy = meta[6]?.string
        rows = meta[3]?.int ?? 0
        let groups = meta[4]?.list ?? []
        rowGroups = groups.count
        let units = Self.units(keyValues["daq.units"])
        // The root element holds the columns; a flat schema is all DAQKit writes.
        columns = (meta[2]?.list ?? []).dropFirst().map { e in
            Column(
                name: e[4]?.string ?? "?", type: Self.typeName(e), optional: e[3]?.int == 1,
                unit: units[e[4]?.string ?? ""], nullCount: 0)
        }
        var codecs: [String] = []
        var lo = Int64.max
        var hi = Int64.min
        for g in groups {
            for chunk in g[1]?.list ?? [] {
                guard let m = chunk[3] else { continue }
                let codec = Self.codecName(m[4]?.int ?? -1)
                if !codecs.contains(codec) { codecs.append(codec) }
                let name = m[3]?.list.first?.string ?? ""
                if let i = columns.firstIndex(where: { $0.name == name }) {
                    if let n = m[12]?[3]?.int, let total = columns[i].nullCount {
                        columns[i].nullCount = total + n
                    } else {
                        columns[i].nullCount = nil
                    }
                }
                if name == "timestamp", let s = m[12], let min = Self.int64(s[6]?.binary),
                    let max = Self.int64(s[5]?.binary)
                {
                    lo = Swift.min(lo, min)
                    hi = Swift.max(hi, max)
                }
            }
        }
        self.codecs = codecs
        timeRange = lo <= hi ? (Double(lo) / 1e6)...(Double(hi) / 1e6) : nil
    }

    /// The footer's bytes and the file's size.
    private static func footer(of path: String) throws -> ([UInt8], Int) {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw ParquetFormatError(path: path, "cannot open")
        }
        defer { try? handle.close() }
        let size = Int(try handle.seekToEnd())
        guard size >= 12 else { throw ParquetFormatError(path: path, "too short for a Parquet file") }
        try handle.seek(toOffset: UInt64(size - 8))
        let tail = [UInt8](try handle.read(upToCount: 8) ?? Data())
        guard tail.count == 8, tail[4...] == ParquetFileWriter.magic[...] else {
            if FileManager.default.fileExists(atPath: path + ParquetCheckpoint.suffix) {
                throw ParquetFormatError(
                    path: path,
                    "no Parquet footer yet: a file still being written, or left open by a killed run "
                        + "(daq repair closes it at its last complete row group)")
            }
            throw ParquetFormatError(path: path, "no Parquet footer (a file still being written, or not Parquet)")
        }
        let length = tail[0..<4].enumerated().reduce(0) { $0 | Int($1.element) << (8 * $1.offset) }
        guard length > 0, length <= size - 12 else {
            throw ParquetFormatError(path: path, "footer length \(length) is wrong")
        }
        try handle.seek(toOffset: UInt64(size - 8 - length))
        return ([UInt8](try handle.read(upToCount: length) ?? Data()), size)
    }

    private static func units(_ json: String?) -> [String: String] {
        guard let json, case .object(let f)? = try? JSONParser.parse(Array(json.utf8)) else { return [:] }
        var units: [String: String] = [:]
        for (k, v) in f.pairs { units[k] = v.stringValue }
        return units
    }

    private static func int64(_ bytes: [UInt8]?) -> Int64? {
        guard let bytes, bytes.count == 8 else { return nil }
        return Int64(bitPattern: bytes.enumerated().reduce(UInt64(0)) { $0 | UInt64($1.element) << (8 * $1.offset) })
    }

    private static func typeName(_ e: ThriftCompactReader.Value) -> String {
        let physical =
            ["BOOLEAN", "INT32", "INT64", "INT96", "FLOAT", "DOUBLE", "BYTE_ARRAY", "FIXED_LEN_BYTE_ARRAY"][
                safe: Int(e[1]?.int ?? -1)] ?? "?"
        guard let logical = e[10] else { return physical }
        if logical[1] != nil { return physical + " STRING" }
        if let ts = logical[8] {
            let unit = ts[2]?[1] != nil ? "ms" : ts[2]?[2] != nil ? "µs" : "ns"
            return physical + " TIMESTAMP(\(ts[1]?.bool == true ? "UTC" : "local"), \(unit))"
        }
        return physical
    }

    private static func codecName(_ code: Int64) -> String {
        ["UNCOMPRESSED", "SNAPPY", "GZIP", "LZO", "BROTLI", "LZ4", "ZSTD", "LZ4_RAW"][safe: Int(code)]
            ?? "codec \(code)"
    }
}

extension Array {
    fileprivate subscript(safe i: Int) -> Element? { indices.contains(i) ? self[i] : nil }
}

/// A file that is not Parquet, or whose footer cannot be read.
public struct ParquetFormatError: Error, CustomStringConvertible {
    /// The file.
    public var path: String
    /// What is wrong with it.
    public var reason: String
    /// `path: reason`.
    public var description: String { "\(path): \(reason)" }

    init(path: String, _ reason: String) {
        self.path = path
        self.reason = reason
    }
}
