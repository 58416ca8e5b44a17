/// The mean of each axis (g) and of the temperature (°C, NaN without one) over one still window.
struct StillPoint: Sendable, Equatable {
    var x: Double
    var y: Double
    var z: Double
    var t: Double
}

/// Finds the still windows of a recording as it streams by: windows of `length` seconds from the
/// first sample (as actipy's and GGIR's are), and keeps the means of those in which every axis's
/// standard deviation (of the sample, n − 1) is under `threshold` g. A window needs two samples.
///
/// Only the running sums of the open window and one point per still window are kept: a week at
/// 100 Hz (60 M samples) leaves at most 60,480 points, about 2 MB.
struct StillWindows {
    private let length: Double
    private let threshold: Double
    /// The first sample's time, which windows count from; NaN before it.
    private var origin = Double.nan
    private var window = Int.min
    /// Offsets from `origin` inside which a sample surely falls in `window`: a millisecond in from
    /// its edges, far beyond the rounding to microseconds, so only samples near an edge (or out
    /// of order) are placed by the exact rule.
    private var inside = (low: Double.infinity, high: -Double.infinity)
    /// Sums of the open window, shifted by its first sample so the variance keeps its digits.
    private var n = 0
    private var first = (x: 0.0, y: 0.0, z: 0.0)
    private var sum = (x: 0.0, y: 0.0, z: 0.0, t: 0.0)
    private var squares = (x: 0.0, y: 0.0, z: 0.0)
    private var temperatures = 0
    /// The still windows so far.
    private(set) var points: [StillPoint] = []
    /// Windows closed so far, still or not.
    private(set) var windows = 0

    init(length: Double, threshold: Double) {
        self.length = length
        self.threshold = threshold
    }

    /// Adds one sample at `time` (seconds); `t` is its temperature, NaN when it has none.
    mutating func add(time: Double, x: Double, y: Double, z: Double, t: Double) {
        if origin.isNaN { origin = time }
        let offset = time - origin
        if !(offset > inside.low && offset < inside.high) {
            // Whole microseconds, so a sample on a window's edge falls in the same window however
            // its time was rounded on the way.
            let index = Int(((offset * 1e6).rounded() / (length * 1e6)).rounded(.down))
            if index != window {
                close()
                window = index
                first = (x, y, z)
                inside = (Double(index) * length + 1e-3, Double(index + 1) * length - 1e-3)
            }
        }
        let (dx, dy, dz) = (x - first.x, y - first.y, z - first.z)
        n += 1
        sum.x += dx
        sum.y += dy
        sum.z += dz
        squares.x += dx * dx
        squares.y += dy * dy
        squares.z += dz * dz
        if !t.isNaN {
            sum.t += t
            temperatures += 1
        }
    }

    /// Closes the open window, keeping it when it is still; call once after the last sample.
    mutating func close() {
        defer {
            n = 0
            sum = (0, 0, 0, 0)
            squares = (0, 0, 0)
            temperatures = 0
        }
        guard n > 0 else { return }
        windows += 1
        guard n >= 2 else { return }
        let count = Double(n)
        let limit = threshold * threshold * (count - 1)
        func still(_ s: Double, _ q: Double) -> Bool { q - s * s / count < limit }
        guard still(sum.x, squares.x), still(sum.y, squares.y), still(sum.z, squares.z) else { return }
        points.append(
            StillPoint(
                x: first.x + sum.x / count, y: first.y + sum.y / count, z: first.z + sum.z / count,
                t: temperatures == n ? sum.t / count : .nan))
    }
}
