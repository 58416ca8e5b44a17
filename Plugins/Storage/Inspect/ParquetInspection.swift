import DAQCore
import Foundation

/// `daq inspect` of a Parquet file or a folder of parts, from their footers alone.
public enum ParquetInspection {
    /// Whether `path` is a Parquet file (by its magic bytes) or a folder holding `.parquet` files.
    public static func isParquet(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return false }
        if isDirectory.boolValue { return !parts(in: path).isEmpty }
        // Only a regular file is opened: opening a FIFO or a device to sniff it could block.
        let type = (try? FileManager.default.attributesOfItem(atPath: path))?[.type] as? FileAttributeType
        guard type == .typeRegular, let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        return (try? handle.read(upToCount: 4)).map { [UInt8]($0) } == ParquetFileWriter.magic
    }

    /// The report: per file, or for a folder its parts together with the schema united by name.
    /// - Throws: ``ParquetFormatError`` for a file whose footer cannot be read.
    public static func report(_ path: String) throws -> String {
        var isDirectory: ObjCBool = false
        _ = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
        let files = isDirectory.boolValue ? parts(in: path).map { path + "/" + $0 } : [path]
        var summaries: [ParquetFileSummary] = []
        var unreadable: [any Error] = []
        for file in files {
            do { summaries.append(try ParquetFileSummary(path: file)) } catch { unreadable.append(error) }
        }
        if summaries.isEmpty, let first = unreadable.first { throw first }
        return text(path: path, summaries, unreadable: unreadable, folder: isDirectory.boolValue)
    }

    private static func parts(in folder: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.hasSuffix(".parquet") }
            .sorted()
    }

    static func text(path: String, _ files: [ParquetFileSummary], unreadable: [any Error], folder: Bool) -> String {
        var lines: [String] = []
        let rows = files.reduce(0) { $0 + $1.rows }
        let groups = files.reduce(0) { $0 + $1.rowGroups }
        let bytes = files.reduce(0) { $0 + $1.bytes }
        lines.append("parquet: \(path)")
        if folder {
            lines.append("parts: \(files.count)" + (unreadable.isEmpty ? "" : " (+\(unreadable.count) unreadable)"))
        }
        if let stream = files.compactMap(\.stream).first { lines.append("stream: \(stream)") }
        lines.append("rows: \(rows) in \(groups) row group\(groups == 1 ? "" : "s"), \(bytes) bytes")
        let lo = files.compactMap { $0.timeRange?.lowerBound }.min()
        let hi = files.compactMap { $0.timeRange?.upperBound }.max()
        if let lo, let hi {
            // Milliseconds are as fine as ISODate shows the ends.
            lines.append(
                "time: \(ISODate.string(lo)) … \(ISODate.string(hi)) (\(((hi - lo) * 1000).rounded() / 1000) s)")
        }
        var codecs: [String] = []
        for c in files.flatMap(\.codecs) where !codecs.contains(c) { codecs.append(c) }
        lines.append("codec: " + (codecs.isEmpty ? "none (no row groups)" : codecs.joined(separator: ", ")))
        if let by = files.first?.createdBy { lines.append("created by: \(by)") }
        // Columns united by name, in the order they first appear: what a union-by-name reader sees.
        var columns: [ParquetFileSummary.Column] = []
        for c in files.flatMap(\.columns) {
            if let i = columns.firstIndex(where: { $0.name == c.name }) {
                columns[i].nullCount = columns[i].nullCount.flatMap { a in c.nullCount.map { a + $0 } }
                if columns[i].unit == nil { columns[i].unit = c.unit }
            } else {
                columns.append(c)
            }
        }
        lines.append("columns:")
        let width = columns.map(\.name.count).max() ?? 0
        for c in columns {
            var line = "  " + c.name + String(repeating: " ", count: width - c.name.count) + "  " + c.type
            if let unit = c.unit { line += "  [\(unit)]" }
            if !c.optional { line += "  required" } else if let n = c.nullCount { line += "  nulls: \(n)" }
            lines.append(line)
        }
        // A part still being written has no footer yet: named, not fatal to the report.
        for problem in unreadable { lines.append("unreadable: \(problem)") }
        return lines.joined(separator: "\n")
    }
}
