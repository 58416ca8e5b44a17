import DAQCore
import Foundation

/// Finds gaps in a replayed recording as its rows go out, so the run says so when it happens
/// (`daq inspect` lists them too, by the same rule: more than twice the sample period). Only the
/// time between consecutive data rows is looked at, once per row, with no allocation.
struct GapWatch {
    /// A gap shorter than this is jitter, not a pause in the recording, whatever the rate.
    static let shortest = 0.25
    private var last: Double?

    /// Looks at the times of `kinds`' data rows of one batch; tells `context` of each gap.
    /// - Parameters:
    ///   - period: the recording's sample period (0 while unknown: nothing is reported).
    ///   - lines: each row's line (or record) number, for the message.
    mutating func see(
        times: [Double], kinds: [SampleKind], lines: [Int], period: Double, path: String, context: StageContext
    ) {
        let least = max(2 * period, Self.shortest)
        for i in times.indices where kinds.isEmpty || kinds[i] == .data {
            let t = times[i]
            if let p = last, period > 0, t - p > least {
                let line = i < lines.count ? "\(path):\(lines[i])" : path
                context.notice(
                    "\(line): a gap of \(Self.seconds(t - p)) s before this row (the sample period is \(Self.seconds(period)) s)"
                )
            }
            last = t
        }
    }

    /// Starts over, as a looped replay does at the file's start.
    mutating func reset() { last = nil }

    static func seconds(_ d: Double) -> String { String(format: d >= 10 ? "%.1f" : "%.3f", d) }
}
