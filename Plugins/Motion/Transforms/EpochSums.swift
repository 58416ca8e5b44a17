import DAQCore
import Foundation

/// Which metrics an epoch computes; the others cost nothing per sample.
struct EpochMetricSet {
    let enmo: Bool
    let mad: Bool
    let anglez: Bool
    /// ENMO below 0 becomes 0.
    let truncate: Bool

    init(_ metrics: [EpochMetric], truncate: Bool) {
        enmo = metrics.contains(.enmo)
        mad = metrics.contains(.mad)
        anglez = metrics.contains(.anglez)
        self.truncate = truncate
    }
}

/// The epoch being filled: its bounds and running sums. It is carried from one `process` call
/// to the next, so an epoch that straddles batches comes out exactly as if it had come in one
/// (the sums add the same values in the same order).
struct EpochSums {
    /// UTC seconds `[start, end)`.
    private(set) var start = 0.0
    private(set) var end = 0.0
    /// Samples in the epoch so far; 0 before the first sample opens one.
    private(set) var count = 0
    private var firstUptime = 0.0
    private var firstTimestamp = 0.0
    private var lastUptime = 0.0
    private var stepPath = ""
    private var worn = 0
    private var enmo = 0.0
    private var norm = 0.0
    private var anglez = 0.0
    /// |a| of each sample, for MAD's second pass (the deviation from a mean known only at the
    /// end); filled only when MAD is asked for, and its capacity is reused epoch after epoch.
    private var norms: [Double] = []

    /// Whether the sample at `t` belongs to the open epoch.
    func holds(_ t: Double) -> Bool { count > 0 && t >= start && t < end }

    /// Starts the epoch `[start, end)` with no samples; the next ``add(x:y:z:worn:uptime:metrics:)``
    /// takes its step path and times from the sample at `row`.
    mutating func open(start: Double, end: Double, uptime: Double, timestamp: Double, stepPath: String) {
        self.start = start
        self.end = end
        firstUptime = uptime
        firstTimestamp = timestamp
        self.stepPath = stepPath
        count = 0
        worn = 0
        enmo = 0
        norm = 0
        anglez = 0
        norms.removeAll(keepingCapacity: true)
    }

    /// Adds one sample, axes in g; `r` is its |a|, `(x² + y² + z²).squareRoot()`.
    @inline(__always)
    mutating func add(
        x: Double, y: Double, z: Double, norm r: Double, worn isWorn: Bool, uptime: Double, metrics: EpochMetricSet
    ) {
        count += 1
        if isWorn { worn += 1 }
        lastUptime = uptime
        if metrics.enmo { enmo += metrics.truncate ? max(0, r - 1) : r - 1 }
        if metrics.mad {
            norm += r
            norms.append(r)
        }
        // atan2 is atan(z / h) for h > 0, and stays finite (±90°, or 0 for a zero vector) at h = 0.
        if metrics.anglez { anglez += atan2(z, (x * x + y * y).squareRoot()) * (180 / Double.pi) }
    }

    /// Appends the epoch as one sample: stamped with its start, at run-clock time `uptime`.
    func emit(into out: inout Batch, uptime: Double, partial: Bool, metrics: EpochMetricSet) {
        let n = Double(count)
        let row = out.appendRow(uptime: uptime, timestamp: start, stepPath: stepPath)
        if metrics.enmo { out.append(double: enmo / n * 1000, toColumn: out.ensureColumn(EpochMetric.enmo.field)) }
        if metrics.mad {
            let mean = norm / n
            var deviation = 0.0
            for r in norms { deviation += abs(r - mean) }
            out.append(double: deviation / n * 1000, toColumn: out.ensureColumn(EpochMetric.mad.field))
        }
        if metrics.anglez { out.append(double: anglez / n, toColumn: out.ensureColumn(EpochMetric.anglez.field)) }
        out.append(.int(Int64(count)), toColumn: out.ensureColumn("samples"))
        out.append(double: Double(worn) / n, toColumn: out.ensureColumn("wear"))
        out.append(.bool(partial), toColumn: out.ensureColumn("partial"))
        // A marker or event passed through before it (motion.nonwear's span event) may have
        // brought columns of its own: they stay one value per sample, absent for the epoch.
        out.padColumns(to: row + 1)
    }

    /// The run-clock time of the epoch's start, mapped from the data's time by its first
    /// sample, so an epoch's `timestamp` (its start) and `uptime` name the same instant, as every
    /// sample's do: a logger dates its start marker at the recording's start, and a step marker
    /// goes after the epochs that began before the step. Never before the run began.
    var startUptime: Double {
        max(0, firstUptime + (start - firstTimestamp))
    }
}

extension EpochSums {
    /// |a| of rows `range`, `(x² + y² + z²).squareRoot()` as ``add(x:y:z:norm:worn:uptime:metrics:)``
    /// takes it, into `out` from its start, in one pass over plain buffers that the compiler
    /// vectorizes: the square root's latency is most of what an epoch costs per sample when it
    /// waits inside the epoch loop. `out` is a scratch buffer reused from batch to batch.
    static func norms(_ xs: [Double], _ ys: [Double], _ zs: [Double], _ range: Range<Int>, into out: inout [Double]) {
        if out.count < range.count { out = [Double](repeating: 0, count: range.count) }
        out.withUnsafeMutableBufferPointer { r in
            xs.withUnsafeBufferPointer { x in
                ys.withUnsafeBufferPointer { y in
                    zs.withUnsafeBufferPointer { z in
                        var k = 0
                        for i in range {
                            r[k] = (x[i] * x[i] + y[i] * y[i] + z[i] * z[i]).squareRoot()
                            k += 1
                        }
                    }
                }
            }
        }
    }
}
