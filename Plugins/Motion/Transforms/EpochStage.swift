import DAQCore
import Foundation

/// What `motion.enmo`, `motion.mad` and `motion.anglez` share: samples in, one sample per epoch
/// out.
///
/// Epochs are placed by each sample's `timestamp` (its wall time: the recording's own for a
/// replay, so the epochs are the same at every clock) on the wall clock of the configured or
/// recorded zone (``EpochGrid``). An epoch is emitted when the first sample past its end comes,
/// and the last one at the end of input, marked `partial: true`. Samples whose axes are missing
/// or not finite are left out and counted; markers pass through.
struct EpochStage {
    private let settings: EpochConfiguration
    private let metrics: EpochMetricSet
    /// `x, y and z`, for the warning about a sample without them.
    private let axes: String

    private enum State {
        /// Before the first batch: the zone is known only once the source has started.
        case unstarted
        /// The grid, and the epoch being filled (no samples until the first one comes).
        case running(EpochGrid, EpochSums)
    }

    private var state = State.unstarted
    /// |a| of the rows being added, computed ahead of the epoch loop (``EpochSums/norms``).
    private var scratch: [Double] = []
    static let chunkLength = 1024
    /// Data samples left out for missing or non-finite axes or time.
    private var leftOut = 0
    static let reportLimit = 20

    init(settings: EpochConfiguration, primary: EpochMetric) {
        self.settings = settings
        metrics = EpochMetricSet(settings.metrics(primary: primary), truncate: settings.truncate)
        axes = "\(settings.x), \(settings.y) and \(settings.z)"
    }

    /// The zone the epochs align to: `time_zone`, else the zone the input's stream was
    /// recorded in, else UTC.
    private func zone(_ batch: Batch, _ context: StageContext) -> TimeZone {
        settings.timeZone.flatMap(ISODate.zone)
            ?? (batch.descriptor ?? context.inputDescriptor)?.timeZone.flatMap(ISODate.zone)
            ?? TimeZone(identifier: "UTC")!
    }

    mutating func process(_ batch: inout Batch, context: StageContext) {
        var grid: EpochGrid
        var sums: EpochSums
        switch state {
        case .unstarted:
            grid = EpochGrid(length: settings.epoch.value, zone: zone(batch, context))
            sums = EpochSums()
        case .running(let g, let s):
            grid = g
            sums = s
        }
        // Dropping the state's copy leaves `sums` the only owner of its buffer: no copy on append.
        state = .unstarted
        defer { state = .running(grid, sums) }

        var out = Batch(stream: context.name)
        let axes = self.axes
        let n = batch.count
        let xc = batch.column(settings.x)
        let yc = batch.column(settings.y)
        let zc = batch.column(settings.z)
        let wearColumn = batch.column(settings.nonwear)
        // Unboxed columns, the common case, are read as plain arrays.
        let xs = xc?.plainDoubles
        let ys = yc?.plainDoubles
        let zs = zc?.plainDoubles
        let unboxed = xs != nil && ys != nil && zs != nil
        // |a| is computed a chunk of rows ahead, into the reused scratch buffer.
        var norms = scratch
        scratch = []
        defer { scratch = norms }
        var chunk = 0..<0
        let flags = wearColumn?.plainBools
        for i in 0..<n {
            guard batch.kinds[i] == .data else {
                out.append(batch[i])
                continue
            }
            let x: Double
            let y: Double
            let z: Double
            if unboxed {
                x = xs![i]
                y = ys![i]
                z = zs![i]
            } else if let a = xc?.double(at: i), let b = yc?.double(at: i), let c = zc?.double(at: i) {
                x = a
                y = b
                z = c
            } else {
                leaveOut(uptime: batch.uptimes[i], why: "has no numeric \(axes)", context: context)
                continue
            }
            let t = batch.timestamps[i]
            guard x.isFinite && y.isFinite && z.isFinite && t.isFinite else {
                leaveOut(uptime: batch.uptimes[i], why: "has a NaN or infinite axis or time", context: context)
                continue
            }
            let uptime = batch.uptimes[i]
            if !sums.holds(t) {
                if sums.count > 0 {
                    sums.emit(
                        into: &out, uptime: sums.startUptime, partial: false, metrics: metrics)
                }
                let (start, end) = grid.epoch(containing: t)
                sums.open(start: start, end: end, uptime: uptime, timestamp: t, stepPath: batch.stepPaths[i])
            }
            let worn = flags.map { !$0[i] } ?? wearColumn.map { !Self.isFlagged($0[i]) } ?? true
            let r: Double
            if unboxed {
                if !chunk.contains(i) {
                    chunk = i..<min(i + Self.chunkLength, n)
                    EpochSums.norms(xs!, ys!, zs!, chunk, into: &norms)
                }
                r = norms[i - chunk.lowerBound]
            } else {
                r = (x * x + y * y + z * z).squareRoot()
            }
            sums.add(x: x, y: y, z: z, norm: r, worn: worn, uptime: uptime, metrics: metrics)
        }
        batch = out
    }

    /// Whether a `nonwear` value says non-wear: `true`; as a CSV column brings it, the text
    /// `true`, `True`, `TRUE` or `1`; or a number other than 0. (Literal comparisons: no
    /// string is made per sample.)
    static func isFlagged(_ value: Value) -> Bool {
        switch value {
        case .bool(let b): return b
        case .int(let i): return i != 0
        case .double(let d): return d != 0 && !d.isNaN
        case .string(let s): return s == "true" || s == "1" || s == "TRUE" || s == "True"
        default: return false
        }
    }

    /// The epoch the end of input cut short, marked `partial: true`.
    mutating func finish(context: StageContext) -> Batch {
        var out = Batch(stream: context.name)
        if case .running(_, let sums) = state, sums.count > 0 {
            sums.emit(into: &out, uptime: sums.startUptime, partial: true, metrics: metrics)
        }
        state = .unstarted
        if leftOut > Self.reportLimit { context.warn("\(leftOut) samples left out of their epochs in all") }
        return out
    }

    /// Counts a sample left out; the first ones are reported one by one.
    private mutating func leaveOut(uptime: Double, why: @autoclosure () -> String, context: StageContext) {
        leftOut += 1
        guard leftOut <= Self.reportLimit else { return }
        context.warn(
            "the sample at uptime \(String((uptime * 1000).rounded() / 1000)) s \(why()): left out of its epoch")
    }
}
