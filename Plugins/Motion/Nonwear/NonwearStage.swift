import DAQCore

/// `motion.nonwear`'s state from batch to batch: before the first timed sample, rows pass on at
/// once (worn: there is nothing to judge them by); from it on, a ``NonwearTimeline`` holds them.
struct NonwearStage {
    private let rule: NonwearRule

    private enum State {
        /// No data sample with a finite time yet, so no origin for the steps.
        case unstarted
        case running(NonwearTimeline)
        /// The end of input has been handled.
        case finished
    }

    private var state = State.unstarted
    /// Data samples without finite axes, counted in no window.
    private var unread = 0
    static let reportLimit = 20

    init(_ configuration: NonwearConfiguration) {
        rule = NonwearRule(configuration)
    }

    mutating func process(_ batch: inout Batch, context: StageContext) {
        var out = Batch(stream: context.name)
        var timeline: NonwearTimeline
        var from = 0
        switch state {
        case .unstarted:
            guard
                let first = batch.kinds.indices.first(where: {
                    batch.kinds[$0] == .data && batch.timestamps[$0].isFinite
                })
            else {
                rule.mark(&batch, nonwear: false)
                return
            }
            if first > 0 {
                var before = batch.slice(0..<first)
                rule.mark(&before, nonwear: false)
                out.append(contentsOf: before)
            }
            timeline = NonwearTimeline(rule: rule, origin: batch.timestamps[first], firstRow: 0)
            from = first
        case .running(let t):
            timeline = t
        case .finished:
            preconditionFailure("motion.nonwear got a batch after the end of its input")
        }
        // Dropping the state's copy leaves `timeline` the only owner of its buffers: no copy on append.
        state = .unstarted
        let missing = timeline.take(batch, from: from, into: &out)
        state = .running(timeline)
        for uptime in missing { report(uptime: uptime, context: context) }
        batch = out
    }

    /// Judges what the end of input leaves open and passes every held row on.
    mutating func finish(context: StageContext) -> Batch {
        var out = Batch(stream: context.name)
        if case .running(var timeline) = state {
            state = .finished
            timeline.finish(into: &out)
        }
        state = .finished
        if unread > Self.reportLimit { context.warn("\(unread) samples without numeric x, y and z in all") }
        return out
    }

    /// Counts a sample without finite axes; the first ones are reported one by one.
    private mutating func report(uptime: Double, context: StageContext) {
        unread += 1
        guard unread <= Self.reportLimit else { return }
        context.warn(
            "the sample at uptime \(String((uptime * 1000).rounded() / 1000)) s has no finite \(rule.x), \(rule.y) and \(rule.z): it is flagged with its step but counts in no window"
        )
    }
}
