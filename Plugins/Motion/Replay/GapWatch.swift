import DAQCore
import Foundation

/// Finds gaps in a replayed recording as its rows go out, so the run says so when it happens
/// (`daq inspect` lists them too, by a like rule: more than twice the sample interval). Only the
/// time between consecutive data rows is looked at, row by row, with no allocation; the typical
/// interval is learnt the same way, so where batches end never changes what is reported.
struct GapWatch {
    /// A gap shorter than this is jitter, not a pause in the recording, whatever the rate.
    static let shortest = 0.25
    /// Intervals seen before any is judged: the typical one must be known first.
    static let learning = 8
    private var last: Double?
    /// A running mean of the intervals that were no gap.
    private var typical = 0.0
    private var seen = 0

    /// Looks at the times of the data rows of one batch, as they go out; tells `context` of each gap.
    /// - Parameters:
    ///   - isData: whether row `i` is a data row (not a marker).
    ///   - line: row `i`'s line (or record) number, for the message, when the format has one.
    mutating func see(
        times: [Double], isData: (Int) -> Bool, line: (Int) -> Int?, path: String, context: StageContext
    ) {
        for i in times.indices where isData(i) {
            let t = times[i]
            defer { last = t }
            guard let p = last, t > p else { continue }
            let dt = t - p
            if seen >= Self.learning && dt > max(2 * typical, Self.shortest) {
                let place = line(i).map { "\(path):\($0)" } ?? path
                context.notice(
                    "\(place): a gap of \(Self.seconds(dt)) s before this row (samples are about \(Self.seconds(typical)) s apart)"
                )
            } else {
                seen += 1
                typical += (dt - typical) / Double(min(seen, 64))
            }
        }
    }

    /// Starts over, as a looped replay does at the file's start.
    mutating func reset() { last = nil }

    static func seconds(_ d: Double) -> String { String(format: d >= 10 ? "%.1f" : "%.3f", d) }
}
