import DAQCore

/// Turns lines of JSON Lines or CSV into samples: shared by the `file` and `stdin` sources.
struct RecordDecoder {
    enum Format: String, ConfigEnum, Sendable {
        case auto, jsonl, csv
    }

    /// A line that could not be decoded.
    struct BadLine: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }

    var format: Format
    var delimiter: UInt8
    var timeField: String?
    private(set) var header: [String]?

    init(format: Format, delimiter: UInt8, timeField: String?) {
        self.format = format
        self.delimiter = delimiter
        self.timeField = timeField
    }

    /// Decodes one line: a sample's metadata and fields, or `nil` for a header or blank line.
    mutating func decode(_ line: UnsafeBufferPointer<UInt8>) throws -> (meta: Fields, fields: Fields)? {
        if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { return nil }
        if format == .auto { format = line.first(where: { $0 != 0x20 }) == UInt8(ascii: "{") ? .jsonl : .csv }
        switch format {
        case .jsonl, .auto:
            let value: Value
            do {
                value = try JSONParser.parse(line, allowNonFinite: true)
            } catch {
                throw BadLine(message: "invalid JSON: \(error)")
            }
            guard case .object(let object) = value else { throw BadLine(message: "expected a JSON object per line") }
            var meta = Fields()
            var fields = Fields()
            for (k, v) in object.pairs {
                if SampleJSON.metadataKeys.contains(k) && k != timeField { meta[k] = v } else { fields[k] = v }
            }
            return (meta, fields)
        case .csv:
            let cells = CSVCells.split(line, delimiter: delimiter)
            guard let header else {
                header = cells.map { String(decoding: $0, as: UTF8.self).trimmingSpaces() }
                return nil
            }
            if cells.count != header.count {
                throw BadLine(message: "expected \(header.count) cells as in the header, found \(cells.count)")
            }
            var meta = Fields()
            var fields = Fields()
            for (name, cell) in zip(header, cells) {
                let v = CSVSplit.value(cell)
                if SampleJSON.metadataKeys.contains(name) && name != timeField {
                    meta[name] = v
                } else {
                    fields[name] = v
                }
            }
            return (meta, fields)
        }
    }
}

/// CSV cells into values; the splitting is DAQCore's ``CSVCells``, as `motion.replay`'s is.
enum CSVSplit {
    /// A cell as a value: empty → null, integer, number, `true`/`false`, else string. Numbers,
    /// NaN and infinity are read as `motion.replay` reads them (``FastDouble``), so the same cell
    /// gives the same value in both.
    static func value(_ cell: [UInt8]) -> Value {
        if cell.isEmpty { return .null }
        return cell.withUnsafeBufferPointer { buf -> Value in
            // Spaces around a number are not part of it (as in `motion.replay`); around text they are kept.
            var from = 0
            var to = buf.count
            while from < to, buf[from] == 0x20 { from += 1 }
            while to > from, buf[to - 1] == 0x20 { to -= 1 }
            let number = UnsafeBufferPointer(rebasing: buf[from..<to])
            if let i = NumberParsing.int64(number) { return .int(i) }
            if let first = number.first, numberStarts.contains(first), let d = FastDouble.parse(number) {
                return .double(d)
            }
            let s = String(decoding: buf, as: UTF8.self)
            if s == "true" { return .bool(true) }
            if s == "false" { return .bool(false) }
            return .string(s)
        }
    }
}

extension CSVSplit {
    /// First bytes of a number, or of NaN and infinity as ``NonFinite`` spells them.
    fileprivate static let numberStarts = Set("0123456789-+.nNiI".utf8)
}

extension RecordDecoder {
    /// What the `nan` setting makes of a decoded record.
    enum NonFiniteVerdict {
        /// No value is NaN or infinite, or `keep` passes them on.
        case pass
        /// `skip`: the record is dropped; the reason names the field.
        case drop(String)
        /// `fail`: the record is a bad line.
        case bad(String)
    }

    /// Applies `policy` to the first top-level value of `record` that is NaN or infinite.
    static func verdict(_ record: (meta: Fields, fields: Fields), policy: NonFinitePolicy) -> NonFiniteVerdict {
        guard policy != .keep, let (name, d) = firstNonFinite(record.meta) ?? firstNonFinite(record.fields) else {
            return .pass
        }
        let what = "'\(name)' is \(NonFinite.name(d))"
        return policy == .skip
            ? .drop("\(what) (nan: skip)")
            : .bad("\(what), not a finite number (nan: skip drops such lines, nan: keep passes them on)")
    }

    private static func firstNonFinite(_ fields: Fields) -> (String, Double)? {
        for (name, value) in fields.pairs {
            if case .double(let d) = value, !d.isFinite { return (name, d) }
        }
        return nil
    }
}

extension String {
    func trimmingSpaces() -> String {
        var s = Substring(self)
        while s.first == " " { s = s.dropFirst() }
        while s.last == " " { s = s.dropLast() }
        return String(s)
    }
}

/// Places decoded records on the run clock.
struct RecordTiming {
    var timeField: String?
    var rate: Double?
    private var firstTimestamp: Double?
    private var index = 0

    init(timeField: String?, rate: Double?) {
        self.timeField = timeField
        self.rate = rate
    }

    /// The run-clock time and wall timestamp of the next record.
    mutating func place(meta: Fields, fields: Fields, startDate: Double) -> (uptime: Double, timestamp: Double) {
        defer { index += 1 }
        if let timeField, let t = fields[timeField]?.doubleValue {
            if firstTimestamp == nil { firstTimestamp = t }
            return (TimeDifference.between(t, firstTimestamp!), t)
        }
        if let u = meta["uptime"]?.doubleValue {
            return (u, meta["timestamp"]?.doubleValue ?? startDate + u)
        }
        if let ts = meta["timestamp"]?.doubleValue {
            if firstTimestamp == nil { firstTimestamp = ts }
            return (TimeDifference.between(ts, firstTimestamp!), ts)
        }
        let u = rate.map { Double(index) / $0 } ?? 0
        return (u, startDate + u)
    }
}

extension Batch {
    /// Appends a decoded record.
    mutating func appendRecord(uptime: Double, timestamp: Double, meta: Fields, fields: Fields) {
        let kind = meta["kind"]?.stringValue.flatMap { k in SampleKind.allCases.first { $0.name == k } } ?? .data
        append(
            Sample(
                timestamp: timestamp, uptime: uptime, stepPath: meta["stepPath"]?.stringValue ?? "", kind: kind,
                fields: fields))
    }
}
