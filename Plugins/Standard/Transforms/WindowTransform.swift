import DAQCore

/// Aggregates samples over tumbling or sliding windows of run-clock time: count, mean, min,
/// max, std, first and last of fields, optionally per value of a key field.
///
/// Windows close when a sample at or past their end arrives, and at the end of input, so
/// they follow data time: the same input gives the same windows under every clock.
public final class WindowTransform: TransformPlugin {
    public enum Statistic: String, ConfigEnum, Sendable {
        case count, mean, min, max, std, first, last
    }

    public struct Configuration: PluginConfiguration {
        @Setting(required: "Window length (2.5, 500ms, 2s, 1m).") var size: Seconds
        @Setting(whenUnset: "size", "Step between window starts; less than size makes sliding windows.") var slide:
            Seconds?
        @Setting("The field to aggregate.") var field: String?
        @Setting("Several fields to aggregate (instead of `field`).") var fields: [String]?
        @Setting(
            "Statistics per field; output `<field>_<stat>`. NaN and inf values are left out of mean, min, max and std, and reported."
        )
        var stats: [Statistic] = [.count, .mean, .min, .max]
        @Setting("A key field (or stepPath): one result per window and key value.") var groupBy: String?
        @Setting("When no data comes, a window closes this long after its end on the run clock.") var grace = Seconds(
            0.25)

        public init() {}

        /// The fields to aggregate, from `field` or `fields`.
        var aggregated: [String] { field.map { [$0] } ?? fields ?? [] }

        public func validate() throws {
            if field != nil, fields != nil { throw $fields.issue("give either 'field' or 'fields', not both") }
            if !(size.value > 0) || !size.value.isFinite {
                throw $size.issue("a window must last more than 0 s, found \(size.value) s")
            }
            if let slide {
                if !(slide.value > 0) { throw $slide.issue("must be more than 0 s, found \(slide.value) s") }
                if slide.value > size.value {
                    throw $slide.issue("must not exceed size (\(size.value) s): samples between windows would be lost")
                }
            }
            if grace.value < 0 { throw $grace.issue("must be 0 s or more, found \(grace.value) s") }
            if stats.isEmpty { throw $stats.issue("must name at least one statistic") }
            if aggregated.isEmpty && stats.contains(where: { $0 != .count }) {
                throw $fields.issue("name the field(s) to aggregate, or use stats: [count]")
            }
        }
    }

    public static let typeName = "window"
    public static let summary = "Tumbling or sliding windows on the run clock: count, mean, min, max, std, first, last."
    public static let output = StreamOutput(
        .own,
        [
            OutputField(
                "window_start", .double, unit: "s", "the window's start, on the input's time base (a recording's dates)"
            ),
            OutputField("window_end", .double, unit: "s", "its end; the sample's timestamp too"),
            OutputField("count", .int, "samples in the window (stats: count)"),
            OutputField(
                "<field>_<stat>", .double, unitFrom: "the field's",
                "each statistic of each field; first and last keep the field's type"),
        ],
        note: "one sample per window (and per group_by value), at 1/slide Hz")

    private let size: Double
    private let slide: Double
    private let fields: [String]
    private let stats: [Statistic]
    private let groupBy: String?
    private var open = OpenWindows()
    private let grace: Double
    /// Inputs that were NaN or infinite, left out of the statistics.
    private var nonFiniteInputs = 0
    static let reportLimit = 20

    public init(configuration: Configuration, context: PluginContext) throws {
        size = configuration.size.value
        slide = configuration.slide?.value ?? configuration.size.value
        fields = configuration.aggregated
        stats = configuration.stats
        groupBy = configuration.groupBy
        grace = configuration.grace.value
    }

    public func describe(input: StreamDescriptor, context: PluginContext) throws -> StreamDescriptor {
        var d = input
        d.fields = [
            FieldDescriptor("window_start", .double, unit: "s"), FieldDescriptor("window_end", .double, unit: "s"),
        ]
        if let groupBy, groupBy != "stepPath" {
            d.fields.append(input.field(groupBy) ?? FieldDescriptor(groupBy, .any))
        }
        if stats.contains(.count) { d.fields.append(FieldDescriptor("count", .int)) }
        for name in fields {
            let f = input.field(name)
            for stat in stats where stat != .count {
                let type: FieldType = stat == .first || stat == .last ? (f?.type ?? .any) : .double
                d.fields.append(FieldDescriptor("\(name)_\(stat.rawValue)", type, unit: f?.unit))
            }
        }
        d.rate = .every(slide)
        return d
    }

    public func process(_ batch: inout Batch, context: StageContext) throws {
        var out = Batch(stream: context.name)
        let columns = fields.map { batch.columnIndex($0) }
        let groupColumn = groupBy.flatMap { batch.columnIndex($0) }
        // Out of `self` for the batch, unshared so it is changed in place, back at the end.
        var windows = open
        open = OpenWindows()
        defer { open = windows }
        for row in 0..<batch.count where batch.kinds[row] == .data {
            let u = batch.uptimes[row]
            close(&windows, before: u, into: &out)
            // Windows [k·slide, k·slide + size) holding u; the epsilon absorbs i/rate rounding.
            let last = Int64((u / slide + 1e-9).rounded(.down))
            let first = Int64(((u - size) / slide + 1e-9).rounded(.down)) + 1
            // `stepPath` groups by the sample's step when no field has that name.
            let key =
                groupColumn.map { batch.columns[$0][row] }
                ?? (groupBy == "stepPath" ? .string(batch.stepPaths[row]) : .null)
            // Windows start at 0: none reaches back before the run began.
            let lowest = Swift.max(first, windows.nextIndex, u >= 0 ? 0 : first)
            guard lowest <= last else { continue }
            var nonFinite: Int?
            for k in lowest...last {
                let slot = windows.slot(k, fieldCount: fields.count, slide: slide, size: size)
                nonFinite = windows.add(
                    at: slot, key: key, row: row, batch: batch, columns: columns, stepPath: batch.stepPaths[row])
            }
            if let f = nonFinite { noteNonFinite(fields[f], uptime: u, context: context) }
        }
        batch = out
        requestTick(windows, context: context)
    }

    /// No data closed the oldest window by its end plus the grace: close what is due now.
    public func tick(now: Double, context: StageContext) throws -> Batch {
        var out = Batch(stream: context.name)
        close(&open, before: now - grace, into: &out)
        requestTick(open, context: context)
        return out
    }

    public func finish(context: StageContext) throws -> Batch {
        var out = Batch(stream: context.name)
        close(&open, before: .infinity, into: &out)
        if nonFiniteInputs > Self.reportLimit { context.warn("\(nonFiniteInputs) NaN or inf inputs left out in all") }
        return out
    }

    private func requestTick(_ windows: OpenWindows, context: StageContext) {
        if let k = windows.indices.first { context.requestTick(atUptime: Double(k) * slide + size + grace) }
    }

    private func close(_ windows: inout OpenWindows, before u: Double, into out: inout Batch) {
        windows.close(before: u, slide: slide, size: size) { groups, start in
            groups.emit(into: &out, start: start, end: start + size, fields: fields, stats: stats, groupBy: groupBy)
        }
    }

    /// A NaN or infinite value counts in no statistic but `first` and `last`; each is counted,
    /// the first ones reported.
    private func noteNonFinite(_ field: String, uptime: Double, context: StageContext) {
        nonFiniteInputs += 1
        guard nonFiniteInputs <= Self.reportLimit else { return }
        context.warn(
            "\(field) is NaN or inf at uptime \(String((uptime * 1000).rounded() / 1000)) s: left out of its windows' mean, min, max and std"
        )
    }
}
