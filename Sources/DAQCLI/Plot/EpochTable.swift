import DAQCore
import Foundation

/// An epoch table as a pipeline writes it from `motion.enmo` or `motion.mad` (a `file` or
/// `logger.csv` sink): one row per epoch with `enmo_mg` or `mad_mg`, its start, and `wear`.
/// `daq inspect` describes it and plots the metric one row per day with non-wear shaded.
struct EpochTable {
    let path: String
    /// The metric plotted: `enmo_mg`, else `mad_mg`.
    let metric: String
    var epochs = 0
    var nonwear = 0
    var first: Double?
    var last: Double?
    var days: DayPlot

    /// The metric column when the CSV's header names one and a start time (`timestamp` or
    /// `timestampDate`), else `nil`: then the file is read as a recording.
    static func metric(inHeaderOf path: String) -> String? {
        guard path.hasSuffix(".csv"), let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        let head = (try? handle.read(upToCount: 4_096)) ?? Data()
        guard let line = head.split(separator: 0x0A, omittingEmptySubsequences: false).first else { return nil }
        let names = CSVCells.split(Array(line.filter { $0 != 0x0D }), delimiter: UInt8(ascii: ",")).map {
            String(decoding: $0, as: UTF8.self)
        }
        guard names.contains("timestamp") || names.contains("timestampDate") else { return nil }
        return ["enmo_mg", "mad_mg"].first(where: names.contains)
    }

    /// Reads the table. A row's start is its `timestampDate` (ISO 8601 with an offset: the local
    /// clock it was written on) when it has one, else its `timestamp` in seconds since 1970,
    /// placed on `zone`'s clock. An epoch is non-wear when its `wear` is under 0.5, as
    /// `summary.daily` counts it.
    /// - Throws: ``EpochTableError`` naming the line of a row without a usable start or value.
    init(path: String, metric: String, zone: TimeZone, buckets: Int = 1100) throws {
        self.path = path
        self.metric = metric
        days = DayPlot(zone: zone, buckets: buckets)
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        var lines = data.split(separator: 0x0A, omittingEmptySubsequences: false).makeIterator()
        guard let header = lines.next() else { throw EpochTableError(path: path, line: 1, reason: "no header") }
        let names = CSVCells.split(Array(header.filter { $0 != 0x0D }), delimiter: UInt8(ascii: ",")).map {
            String(decoding: $0, as: UTF8.self)
        }
        let valueAt = names.firstIndex(of: metric)!
        let timestampAt = names.firstIndex(of: "timestamp")
        let dateAt = names.firstIndex(of: "timestampDate")
        let wearAt = names.firstIndex(of: "wear")
        var lineNumber = 1
        while let raw = lines.next() {
            lineNumber += 1
            let line = Array(raw.filter { $0 != 0x0D })
            if line.isEmpty { continue }
            let cells = CSVCells.split(line, delimiter: UInt8(ascii: ","))
            func cell(_ i: Int?) -> String? {
                guard let i, i < cells.count, !cells[i].isEmpty else { return nil }
                return String(decoding: cells[i], as: UTF8.self)
            }
            // A logger's marker rows have no value: they are not epochs.
            guard let text = cell(valueAt) else { continue }
            guard let value = Double(text), value.isFinite else {
                throw EpochTableError(path: path, line: lineNumber, reason: "\(metric) is '\(text)', not a number")
            }
            let off = cell(wearAt).flatMap(Double.init).map { $0 < 0.5 } ?? false
            if let date = cell(dateAt), let instant = Self.instant(date) {
                days.add(local: instant.utc + instant.offset, value, nonwear: off)
                note(instant.utc, off)
            } else if let t = cell(timestampAt).flatMap(Double.init), t > 315_532_800 {
                days.add(t, value, nonwear: off)
                note(t, off)
            } else {
                throw EpochTableError(
                    path: path, line: lineNumber,
                    reason: "no start: an epoch row needs timestampDate (ISO 8601) or timestamp in seconds since 1970")
            }
        }
    }

    private mutating func note(_ utc: Double, _ off: Bool) {
        epochs += 1
        if off { nonwear += 1 }
        if first == nil { first = utc }
        last = utc
    }

    /// `2026-10-25T01:30:00.000+01:00` (or `Z`) as UTC seconds and its offset in seconds.
    static func instant(_ text: String) -> (utc: Double, offset: Double)? {
        let b = Array(text.utf8)
        func number(_ from: Int, _ count: Int) -> Int? {
            guard from + count <= b.count else { return nil }
            var v = 0
            for c in b[from..<(from + count)] {
                guard c >= 48 && c <= 57 else { return nil }
                v = v * 10 + Int(c - 48)
            }
            return v
        }
        guard b.count >= 20, let year = number(0, 4), let month = number(5, 2), let day = number(8, 2),
            let hour = number(11, 2), let minute = number(14, 2), let second = number(17, 2)
        else { return nil }
        var i = 19
        var fraction = 0.0
        if i < b.count, b[i] == UInt8(ascii: ".") {
            var scale = 0.1
            i += 1
            while i < b.count, b[i] >= 48 && b[i] <= 57 {
                fraction += Double(b[i] - 48) * scale
                scale /= 10
                i += 1
            }
        }
        var offset = 0
        if i < b.count, b[i] == UInt8(ascii: "+") || b[i] == UInt8(ascii: "-") {
            guard let h = number(i + 1, 2), let m = number(i + 4, 2) else { return nil }
            offset = (h * 3_600 + m * 60) * (b[i] == UInt8(ascii: "-") ? -1 : 1)
        } else if !(i < b.count && b[i] == UInt8(ascii: "Z")) {
            return nil
        }
        let local = Double(days(year, month, day) * 86_400 + hour * 3_600 + minute * 60 + second) + fraction
        return (local - Double(offset), Double(offset))
    }

    /// Days from 1970-01-01 to a proleptic Gregorian date (Hinnant's days-from-civil).
    private static func days(_ y0: Int, _ m: Int, _ d: Int) -> Int {
        let y = m <= 2 ? y0 - 1 : y0
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    var text: String {
        var l = ["epoch table: \(path)", "metric: \(metric)", "epochs: \(epochs), non-wear: \(nonwear)"]
        if let first, let last {
            l.append("first epoch: \(ISODate.string(first, timeZone: days.zone))")
            l.append("last epoch: \(ISODate.string(last, timeZone: days.zone))")
        }
        l.append("days: \(days.dayCount)")
        return l.joined(separator: "\n")
    }

    /// The plot: the metric one row per day, non-wear shaded.
    func svg() -> String {
        var plot = days
        let name = metric == "mad_mg" ? "MAD" : "ENMO"
        plot.series = DayPlot.Series(name: name, detail: " per epoch", clock: "local clock")
        var title = (path as NSString).lastPathComponent
        if let first, let last {
            title +=
                " — \(ISODate.string(first, timeZone: days.zone)) to \(ISODate.string(last, timeZone: days.zone)), \(epochs) epochs"
        }
        return plot.svg(title: title, units: "mg")
    }
}

/// An epoch table `daq inspect` cannot read: the file, the line and what was wrong.
struct EpochTableError: Error, CustomStringConvertible {
    var path: String
    var line: Int
    var reason: String
    var description: String { "\(path):\(line): \(reason)" }
}
