import DAQCore
import Foundation

/// JSON recordings: JSON Lines (one object per line), and SageResearch motion logs — an
/// object `{"startDate": …, "items": [ … ]}` or a root array — read item by item in constant
/// memory, whatever the layout of the text (one item per line or pretty-printed).
final class JSONRecordingReader: RecordingReader {
    private let reader: LineReader
    private let path: String
    private let columns: ColumnMapping
    private let sensorType: String?
    private var scanner = JSONItemScanner()
    private let lines: Bool
    private var pending: [(Value, Int)] = []
    private var ended = false
    /// Seconds since 1970 of a SageResearch log's `startDate`, added to item times.
    private var startDate: Double?
    private(set) var extraNames: [String] = []
    var timeOffset: Double { startDate ?? 0 }
    private(set) var notes: [String] = []

    init(path: String, lines: Bool, columns: ColumnMapping, sensorType: String?) throws {
        self.path = path
        self.lines = lines
        self.columns = columns
        self.sensorType = sensorType
        reader = try LineReader(path: path)
    }

    func read(into rows: inout RowBuffer, limit: Int) throws -> Bool {
        let target = rows.count + limit
        while rows.count < target {
            if !pending.isEmpty {
                let (value, line) = pending.removeFirst()
                try row(value, line: line, into: &rows)
                continue
            }
            if ended { return false }
            try fill()
        }
        return true
    }

    private func fill() throws {
        var parseError: (any Error)?
        let status = try reader.nextLine { bytes in
            let line = reader.lineNumber
            if lines {
                guard bytes.contains(where: { $0 != 0x20 && $0 != 0x09 }) else { return }
                do { pending.append((try JSONParser.parse(bytes, allowNonFinite: true), line)) } catch {
                    parseError = BadRow(path: path, line: line, message: "invalid JSON: \(error)")
                }
            } else {
                do {
                    for item in try scanner.feed(bytes) {
                        pending.append((try JSONParser.parse(item, allowNonFinite: true), line))
                    }
                    if let date = scanner.startDate, startDate == nil {
                        startDate = DateTimeParser(pattern: nil, timeZone: TimeZone(identifier: "UTC")!).parse(date)
                    }
                } catch let e as JSONItemScanner.Failure {
                    parseError = BadRow(path: path, line: line, message: e.message)
                } catch {
                    parseError = BadRow(path: path, line: line, message: "invalid JSON item: \(error)")
                }
            }
        }
        if let parseError { throw parseError }
        if status != .line {
            ended = true
            if !lines && !scanner.isComplete {
                throw BadRow(
                    path: path, line: reader.lineNumber,
                    message:
                        "the log is cut off inside \(scanner.isInsideItem ? "an item" : "its items list") (run 'daq repair' to close it)"
                )
            }
        }
    }

    private func row(_ value: Value, line: Int, into rows: inout RowBuffer) throws {
        guard case .object(let o) = value else {
            throw BadRow(path: path, line: line, message: "expected a JSON object, found \(value.typeName)")
        }
        let stepPath = o["stepPath"]?.stringValue ?? ""
        let timeKeys =
            columns.time.map { [$0] } ?? (lines ? ["timestamp", "time", "t", "uptime"] : ["timestamp", "uptime"])
        guard let time = timeKeys.lazy.compactMap({ o[$0]?.doubleValue }).first else {
            throw BadRow(
                path: path, line: line, message: "no time: expected one of \(timeKeys.joined(separator: ", "))")
        }
        let absolute = time
        let xKey = columns.x ?? "x"
        let yKey = columns.y ?? "y"
        let zKey = columns.z ?? "z"
        if o[xKey] == nil, o["timestampDate"] != nil || (!lines && o[yKey] == nil) {
            // A SageResearch step marker.
            append(
                &rows, time: absolute, x: .nan, y: .nan, z: .nan, stepPath: stepPath, kind: .marker, extras: [],
                line: line)
            return
        }
        if let sensorType, let t = o["sensorType"]?.stringValue, t != sensorType { return }
        guard let x = o[xKey]?.doubleValue, let y = o[yKey]?.doubleValue, let z = o[zKey]?.doubleValue else {
            throw BadRow(path: path, line: line, message: "expected numbers in '\(xKey)', '\(yKey)' and '\(zKey)'")
        }
        let skip: Set<String> = Set(timeKeys + [xKey, yKey, zKey, "stepPath", "uptime", "timestamp", "timestampDate"])
        var extras: [Value] = []
        for (k, v) in o.pairs where !skip.contains(k) {
            if let i = extraNames.firstIndex(of: k) {
                while extras.count < i { extras.append(.null) }
                if extras.count == i { extras.append(v) } else { extras[i] = v }
            } else {
                extraNames.append(k)
                while extras.count < extraNames.count - 1 { extras.append(.null) }
                extras.append(v)
            }
        }
        append(&rows, time: absolute, x: x, y: y, z: z, stepPath: stepPath, kind: .data, extras: extras, line: line)
    }

    /// JSON rows always fill step paths, kinds and extras, so every array stays one per row.
    private func append(
        _ rows: inout RowBuffer, time: Double, x: Double, y: Double, z: Double, stepPath: String, kind: SampleKind,
        extras: [Value], line: Int
    ) {
        rows.append(time: time, x: x, y: y, z: z, line: line)
        rows.stepPaths.append(stepPath)
        rows.kinds.append(kind)
        rows.extras.append(extras)
    }
}

/// Finds the items of a SageResearch log in text fed line by line: tracks strings, escapes and
/// nesting so that brackets inside strings never mislead it, and yields each complete item.
struct JSONItemScanner {
    struct Failure: Error { var message: String }

    private enum Phase { case start, rootObject, items, done }
    private var phase = Phase.start
    private var depth = 0
    private var inString = false
    private var escaped = false
    private var item: [UInt8] = []
    /// Text of the root object outside the items array, to find `startDate`.
    private var header: [UInt8] = []
    private(set) var startDate: String?

    var isComplete: Bool { phase == .done }
    var isInsideItem: Bool { depth > 0 }

    mutating func feed(_ bytes: UnsafeBufferPointer<UInt8>) throws -> [[UInt8]] {
        var out: [[UInt8]] = []
        for b in bytes {
            switch phase {
            case .start:
                if b == UInt8(ascii: "[") {
                    phase = .items
                } else if b == UInt8(ascii: "{") {
                    phase = .rootObject
                } else if b > 0x20 {
                    throw Failure(message: "expected a SageResearch log: an object with 'items' or a list of items")
                }
            case .rootObject:
                header.append(b)
                if inString {
                    if escaped {
                        escaped = false
                    } else if b == UInt8(ascii: "\\") {
                        escaped = true
                    } else if b == UInt8(ascii: "\"") {
                        inString = false
                    }
                } else if b == UInt8(ascii: "\"") {
                    inString = true
                } else if b == UInt8(ascii: "[") {
                    let text = String(decoding: header, as: UTF8.self)
                    if text.replacingOccurrences(of: " ", with: "").hasSuffix("\"items\":[") {
                        phase = .items
                        if let r = text.range(of: "\"startDate\"") {
                            let after = text[r.upperBound...].drop { $0 == " " || $0 == ":" }
                            if after.first == "\"", let end = after.dropFirst().firstIndex(of: "\"") {
                                startDate = String(after.dropFirst()[..<end])
                            }
                        }
                    }
                }
            case .items:
                if depth == 0 {
                    if b == UInt8(ascii: "{") || b == UInt8(ascii: "[") {
                        depth = 1
                        item = [b]
                    } else if b == UInt8(ascii: "]") {
                        phase = .done
                    }
                    continue
                }
                item.append(b)
                if inString {
                    if escaped {
                        escaped = false
                    } else if b == UInt8(ascii: "\\") {
                        escaped = true
                    } else if b == UInt8(ascii: "\"") {
                        inString = false
                    }
                } else if b == UInt8(ascii: "\"") {
                    inString = true
                } else if b == UInt8(ascii: "{") || b == UInt8(ascii: "[") {
                    depth += 1
                } else if b == UInt8(ascii: "}") || b == UInt8(ascii: "]") {
                    depth -= 1
                    if depth == 0 { out.append(item) }
                }
            case .done:
                break
            }
        }
        if phase == .items, depth > 0 { item.append(0x0A) }
        return out
    }
}
