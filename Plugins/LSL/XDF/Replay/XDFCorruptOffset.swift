/// pyxdf's guard against a known LSL fault (pylsl#67, liblsl#246): an outlet destroyed while an
/// inlet is connected leaves an extra sample after the footer's count and a last clock offset
/// of garbage. When a stream has both — more samples than its footer's `sample_count` and a last
/// offset that is an outlier — pyxdf drops that offset and the extra samples; the replay does
/// the same, so both read the same samples.
enum XDFCorruptOffset {
    /// How many samples to keep, and whether to drop the last clock offset.
    static func check(_ record: XDFStreamRecord) -> (keep: Int, dropLastOffset: Bool) {
        guard let counted = record.footerSampleCount, record.sampleCount > counted, record.clockTimes.count >= 3,
            lastOffsetIsOutlier(record.clockTimes, record.clockValues)
        else { return (record.sampleCount, false) }
        return (counted, true)
    }

    /// Whether the last offset came after more than 10 median intervals, or lies more than 10
    /// scaled MADs from the median of the others.
    static func lastOffsetIsOutlier(_ times: [Double], _ values: [Double]) -> Bool {
        let steps = zip(times.dropFirst(), times).map { $0 - $1 }
        let typical = XDFClockSync.median(Array(steps.dropLast()))
        let last = abs(steps[steps.count - 1])
        let ratio = typical > 0 ? last / typical : (last > 0 ? Double.infinity : 1)
        let others = Array(values.dropLast())
        let center = XDFClockSync.median(others)
        let mad = XDFClockSync.median(others.map { abs($0 - center) })
        let score = mad > Double.ulpOfOne ? abs(values[values.count - 1] - center) / (1.4826 * mad) : 0
        return ratio > 10 || score > 10
    }
}
