import DAQCore

#if canImport(Glibc)
    import Glibc
#endif

/// Prints samples to standard output, readable or as JSON Lines.
public final class ConsoleSink: SinkPlugin {
    public enum Format: String, ConfigEnum, Sendable {
        case text, json
    }

    public struct Configuration: PluginConfiguration {
        @Setting("text: one aligned line per sample; json: JSON Lines.") var format = Format.text
        @Setting("Only these fields (text format).") var fields: [String]?

        public init() {}
    }

    public static let typeName = "console"
    public static let summary = "Prints samples to standard output, readable (text) or as JSON Lines (json)."

    private let config: Configuration
    private let out = OutputFile(descriptor: STDOUT_FILENO, name: "<stdout>")
    private var pendingDelivery = 0

    public init(configuration: Configuration, context: PluginContext) throws {
        config = configuration
    }

    public func write(_ batch: Batch, context: StageContext) throws {
        let before = out.bytesWritten
        let json = config.format == .json
        try out.withBuffer { buffer in
            for row in 0..<batch.count {
                if json {
                    SampleJSON.appendLine(batch, row: row, to: &buffer)
                } else {
                    appendText(batch, row: row, to: &buffer)
                }
            }
        }
        pendingDelivery += batch.count
        context.wrote(bytes: out.bytesWritten - before)
    }

    public func flush(context: StageContext) throws {
        try out.flush()
        if pendingDelivery > 0 {
            context.delivered(samples: pendingDelivery)
            pendingDelivery = 0
        }
    }

    /// Six decimals at most, trailing zeros trimmed: what a person wants to read.
    private func appendReadable(_ d: Double, to out: inout [UInt8]) {
        guard d.isFinite, abs(d) < 1e12 else { return NumberFormatting.appendShortest(d, to: &out) }
        let start = out.count
        NumberFormatting.appendFixed(d, decimals: 6, to: &out)
        while out.count > start, out.last == UInt8(ascii: "0") { out.removeLast() }
        if out.last == UInt8(ascii: ".") { out.removeLast() }
        if out.count - start == 2, out[start] == UInt8(ascii: "-"), out[start + 1] == UInt8(ascii: "0") {
            out.remove(at: start)
        }
    }

    private func appendText(_ batch: Batch, row: Int, to out: inout [UInt8]) {
        var time: [UInt8] = []
        NumberFormatting.appendFixed(batch.uptimes[row], decimals: 3, to: &time)
        for _ in time.count..<max(time.count, 10) { out.append(UInt8(ascii: " ")) }
        out.append(contentsOf: time)
        out.append(contentsOf: " s  ".utf8)
        switch batch.kinds[row] {
        case .marker:
            if let kind = batch.column(ClockPause.markerField).flatMap({ $0.isAbsent(row) ? nil : $0[row].stringValue }
            ),
                kind == "pause" || kind == "resume"
            {
                // A pause or resume marker: its wall time, and how long the pause lasted.
                out.append(contentsOf: "── \(kind) at \(ISODate.string(batch.timestamps[row]))".utf8)
                if let paused = batch.column(ClockPause.pausedSecondsField).flatMap({
                    $0.isAbsent(row) ? nil : $0[row].doubleValue
                }) {
                    out.append(contentsOf: " after ".utf8)
                    NumberFormatting.appendFixed(paused, decimals: 3, to: &out)
                    out.append(contentsOf: " s paused".utf8)
                }
                out.append(0x0A)
                return
            }
            out.append(contentsOf: "── step ".utf8)
            out.append(contentsOf: (batch.stepPaths[row].isEmpty ? "(none)" : batch.stepPaths[row]).utf8)
            out.append(0x0A)
            return
        case .event:
            out.append(contentsOf: "event ".utf8)
        case .data:
            break
        }
        out.append(contentsOf: batch.stream.utf8)
        for column in batch.columns {
            if let only = config.fields, !only.contains(column.name) { continue }
            if column.isAbsent(row) { continue }
            let v = column[row]
            if batch.kinds[row] != .data && v.isNull { continue }
            out.append(UInt8(ascii: " "))
            out.append(contentsOf: column.name.utf8)
            out.append(UInt8(ascii: "="))
            switch v {
            case .string(let s): out.append(contentsOf: s.utf8)
            case .double(let d): appendReadable(d, to: &out)
            default: JSONEncoding.append(v, to: &out)
            }
        }
        if !batch.stepPaths[row].isEmpty {
            out.append(contentsOf: "  [".utf8)
            out.append(contentsOf: batch.stepPaths[row].utf8)
            out.append(UInt8(ascii: "]"))
        }
        out.append(0x0A)
    }
}
