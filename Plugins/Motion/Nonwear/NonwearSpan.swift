import DAQCore

/// A non-wear span being passed on: its first and last block, and what its event reports.
struct NonwearSpan {
    let firstBlock: Int
    var lastBlock: Int
    /// Data samples in the span.
    var samples = 0
    /// The run-clock time and step of its last row, which its event follows.
    var lastUptime = 0.0
    var stepPath = ""

    /// The span's `motion.nonwear` event: `start` and `end` are the bounds of its steps (the end
    /// no later than the last sample seen, for a span the end of input cut short), and the event
    /// is stamped with the end.
    func event(origin: Double, step: Double, lastTime: Double) -> Sample {
        let start = origin + Double(firstBlock) * step
        let end = min(origin + Double(lastBlock + 1) * step, lastTime)
        return Sample(
            timestamp: end, uptime: lastUptime, stepPath: stepPath, kind: .event,
            fields: [
                "event": .string("motion.nonwear"), "start": .double(start), "end": .double(end),
                "samples": .int(Int64(samples)),
            ])
    }
}
