/// Puts one stream's time stamps on the recorder's clock as pyxdf's `load_xdf` does with
/// `synchronize_clocks=True, handle_clock_resets=True` (pyxdf 1.17.5): its clock offsets are cut
/// into segments at clock resets, a line is fitted through each (``XDFClockFit``), and each time
/// stamp gets the correction of its segment.
///
/// A time stamp moves to the next segment at the first one nearer that segment's first offset
/// than the current segment's last; segments are met in order, one sample after another, so
/// the stream is corrected as it is read, in constant memory.
struct XDFClockSync {
    /// One segment: its line, and the collection times that decide where it ends.
    struct Segment {
        var intercept: Double
        var slope: Double
        /// The time of its last clock offset, and of the next segment's first (`nil` for the last).
        var lastTime: Double
        var nextFirstTime: Double?
    }

    private(set) var segments: [Segment]
    /// The segment the next time stamp is tested against.
    private var current = 0
    /// Segments passed without a sample in them, which pyxdf reports.
    private(set) var emptySegments = 0

    /// No correction: the stream has no clock offsets, or synchronisation is off.
    static let identity = XDFClockSync(segments: [])

    private init(segments: [Segment]) {
        self.segments = segments
    }

    /// The correction for a stream with clock offsets `times`/`values`.
    /// - Parameter resets: whether to look for clock resets (`handle_clock_resets`).
    init(times: [Double], values: [Double], resets: Bool) {
        guard !times.isEmpty else {
            self.init(segments: [])
            return
        }
        let ranges = resets && times.count > 1 ? Self.resetRanges(times, values) : [0...(times.count - 1)]
        var built: [Segment] = []
        for (k, range) in ranges.enumerated() {
            var line = (intercept: values[range.lowerBound], slope: 0.0)
            if range.count > 1 {
                line = XDFClockFit.fit(times: times[range], values: values[range]) ?? (0, 0)
            }
            let next = k + 1 < ranges.count ? times[ranges[k + 1].lowerBound] : nil
            built.append(
                Segment(
                    intercept: line.intercept, slope: line.slope, lastTime: times[range.upperBound], nextFirstTime: next
                ))
        }
        self.init(segments: built)
    }

    /// Corrects the next time stamp of the stream, in order.
    mutating func map(_ t: Double) -> Double {
        guard !segments.isEmpty else { return t }
        while let next = segments[current].nextFirstTime, !(abs(t - segments[current].lastTime) < abs(t - next)) {
            current += 1
        }
        let s = segments[current]
        return t + (s.intercept + s.slope * t)
    }

    /// The clock offsets between resets, as index ranges: a reset is where the collection time
    /// goes back, or where both the time between two offsets and the change of offset are
    /// outliers (over 5 MADs and 5 s, and over 10 MADs and 1 s).
    static func resetRanges(_ times: [Double], _ values: [Double]) -> [ClosedRange<Int>] {
        let timeSteps = zip(times.dropFirst(), times).map { $0 - $1 }
        let valueSteps = zip(values.dropFirst(), values).map { $0 - $1 }
        let timeGlitch = glitches(timeSteps, deviations: 5, seconds: 5)
        let valueGlitch = glitches(valueSteps, deviations: 10, seconds: 1)
        var ranges: [ClosedRange<Int>] = []
        var start = 0
        for i in timeSteps.indices where timeSteps[i] < 0 || (timeGlitch[i] && valueGlitch[i]) {
            ranges.append(start...i)
            start = i + 1
        }
        ranges.append(start...(times.count - 1))
        return ranges
    }

    /// Steps further from the median than `deviations` median absolute deviations and `seconds`.
    private static func glitches(_ steps: [Double], deviations: Double, seconds: Double) -> [Bool] {
        let median = Self.median(steps)
        let shifted = steps.map { $0 - median }
        let mad = Self.median(shifted.map(abs)) + Double.ulpOfOne
        return shifted.map { abs($0 / mad) > deviations && abs($0) > seconds }
    }

    /// The median as numpy takes it: the mean of the middle two of an even count.
    static func median(_ values: [Double]) -> Double {
        guard !values.isEmpty else { return .nan }
        let sorted = values.sorted()
        let mid = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
    }
}
