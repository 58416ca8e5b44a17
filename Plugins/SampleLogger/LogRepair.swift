import DAQCore
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Closes logger files left open by a run that was killed: what `daq repair` does.
///
/// A `logger.json` cut mid-item keeps every complete item, loses the partial tail and gets its
/// array and object closed; a `logger.jsonl` loses its partial last line, a `logger.csv` its
/// partial last row. A complete file is left untouched, so repairing twice changes nothing.
/// How a file is replaced, and where its original goes: ``repairFile(atPath:)``.
public enum LogRepair {
    /// The kinds of log repair understands.
    public enum Format: String, Sendable {
        /// `logger.json`: `{"startDate", "items": [ … ]}` or a root array.
        case json
        /// `logger.jsonl`: one item per line.
        case jsonLines = "jsonl"
        /// `logger.csv`: a header row `uptime,timestamp,stepPath,timestampDate,…`, one row per item.
        case csv
    }

    /// What repairing some bytes gives.
    public struct Result: Sendable, Equatable {
        /// The format found.
        public var format: Format
        /// The repaired bytes; the input itself when nothing was changed.
        public var bytes: [UInt8]
        /// Complete items kept.
        public var itemsKept: Int
        /// Bytes of the input that were dropped (the partial tail).
        public var bytesDropped: Int
        /// Whether the input needed repair.
        public var changed: Bool
        /// How many leading bytes of the input ``bytes`` keeps as they are; the rest of
        /// ``bytes`` closes the log. What a repair in place keeps of the file.
        public var keptBytes: Int { bytes.count - closing }
        /// The bytes added after the kept ones (`]}` and line ends).
        var closing = 0
    }

    /// What repairing one file did.
    public struct Outcome: Sendable, CustomStringConvertible {
        /// The file.
        public var path: String
        /// How its bytes were repaired.
        public var result: Result
        /// Where the original was saved, when the file was changed and there was room.
        public var backupPath: String?
        /// Why the file was repaired in place without keeping its original (no room for a copy).
        public var inPlaceReason: String?

        /// One line for `daq repair`.
        public var description: String {
            guard result.changed else {
                return "\(path): already complete (\(result.itemsKept) items); nothing changed"
            }
            let what =
                "\(path): repaired \(result.format.rawValue) log: kept \(result.itemsKept) items, "
                + "dropped \(result.bytesDropped) bytes"
            if let backupPath { return what + "; original saved as \(backupPath)" }
            return what
                + " in place (no room for a copy beside it: \(inPlaceReason ?? "?")); the dropped bytes are not kept"
        }
    }

    /// A file that could not be repaired, with the reason.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        /// The file, or empty for bytes repaired in memory.
        public var path: String
        /// Why.
        public var reason: String
        public var description: String { path.isEmpty ? reason : "\(path): \(reason)" }
    }

    /// Repairs `bytes` in memory.
    /// - Parameter format: the log's format; `nil` tells it from the content.
    /// - Throws: ``Failure`` when the bytes are not a logger log.
    public static func repair(_ bytes: [UInt8], format: Format? = nil) throws(Failure) -> Result {
        switch format ?? detect(bytes) {
        case .json: return try repairJSON(bytes)
        case .jsonLines: return try repairLines(bytes)
        case .csv: return try repairCSV(bytes)
        }
    }

    /// CSV when it begins with the logger's header; JSON Lines when the first line is a whole
    /// item; a `logger.json` file's first line never is.
    private static func detect(_ bytes: [UInt8]) -> Format {
        if bytes.starts(with: csvHeader.utf8) { return .csv }
        let end = bytes.firstIndex(of: 0x0A) ?? bytes.endIndex
        if case .object(let fields)? = try? JSONParser.parse(bytes[..<end]), fields["uptime"] != nil {
            return .jsonLines
        }
        return .json
    }

    private static func repairJSON(_ bytes: [UInt8]) throws(Failure) -> Result {
        let scan: LogScanner.Scan
        do {
            scan = try LogScanner.scan(bytes)
        } catch {
            throw Failure(path: "", reason: "not a logger JSON log: \(error.reason)")
        }
        if scan.complete {
            return Result(format: .json, bytes: bytes, itemsKept: scan.items, bytesDropped: 0, changed: false)
        }
        var out = Array(bytes[..<scan.keptEnd])
        let closing = scan.rootIsArray ? "\n]\n" : "\n]}\n"
        out.append(contentsOf: closing.utf8)
        return Result(
            format: .json, bytes: out, itemsKept: scan.items, bytesDropped: bytes.count - scan.keptEnd, changed: true,
            closing: closing.utf8.count)
    }

    /// Whether a line cut before its end could be the start of a logger item: every item
    /// begins with `{"uptime":`.
    private static func isItemStart(_ line: ArraySlice<UInt8>) -> Bool {
        let tag = #"{"uptime":"#.utf8
        return line.starts(with: tag) || tag.starts(with: line)
    }

    private static func repairLines(_ bytes: [UInt8]) throws(Failure) -> Result {
        var items = 0
        var start = 0
        var keptEnd = 0
        var lastLineWhole = false
        while start < bytes.count {
            let newline = bytes[start...].firstIndex(of: 0x0A)
            let end = newline ?? bytes.count
            let line = bytes[start..<end]
            let isBlank = line.allSatisfy { $0 == 0x20 || $0 == 0x0D || $0 == 0x09 }
            if !isBlank {
                let parsed = try? JSONParser.parse(line)
                if case .object(let fields)? = parsed, items > 0 || fields["uptime"] != nil {
                    items += 1
                } else if newline == nil && (items > 0 || isItemStart(line)) {
                    break  // the partial last line a crash leaves
                } else {
                    throw Failure(path: "", reason: "not a logger JSON Lines log: line \(items + 1) is not an item")
                }
            }
            lastLineWhole = newline != nil
            keptEnd = newline.map { $0 + 1 } ?? end
            start = end + 1
        }
        if keptEnd == bytes.count && (lastLineWhole || bytes.isEmpty) {
            return Result(format: .jsonLines, bytes: bytes, itemsKept: items, bytesDropped: 0, changed: false)
        }
        // A last item cut just before its newline is whole: keep it and end the line.
        var out = Array(bytes[..<keptEnd])
        if keptEnd == bytes.count { out.append(0x0A) }
        return Result(
            format: .jsonLines, bytes: out, itemsKept: items, bytesDropped: bytes.count - keptEnd, changed: true,
            closing: out.count - keptEnd)
    }
}
