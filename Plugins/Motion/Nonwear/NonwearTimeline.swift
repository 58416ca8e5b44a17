import DAQCore
import DequeModule

/// The running part of `motion.nonwear`: the steps counted from the first sample's time, the
/// rows held until every window over their step has been judged, and the span being passed on.
///
/// Windows start at every step and are judged when the first sample past their end arrives
/// (or at the end of input); a step is final once the window starting at it has been judged,
/// and its rows are passed on then. So at most a window and a step of rows are held, plus the
/// batch being read, each row once: they are kept in the batches they came in and copied only
/// when passed on. Every decision follows the rows' order and their `timestamp`s, so the
/// output is the same whatever the batch boundaries and the run clock.
struct NonwearTimeline {
    let rule: NonwearRule
    /// The first data sample's time: step 0 starts there.
    let origin: Double
    /// Blocks not yet passed on, oldest first; the last is being filled. Never empty.
    private var blocks: [NonwearBlock]
    /// The first window not yet judged.
    private var nextWindow = 0
    /// Rows taken in and not yet passed on, in the batches they came in, oldest first; the row
    /// number of the first one's first row, and of the row after the last.
    private var held = Deque<Batch>()
    private var heldBase: Int
    private var heldEnd: Int
    /// The latest sample time seen, which ends a span the end of input cut short.
    private var lastTime: Double
    private var span: NonwearSpan?

    /// Starts at `origin`, with the first block at row `firstRow`.
    init(rule: NonwearRule, origin: Double, firstRow: Int) {
        self.rule = rule
        self.origin = origin
        blocks = [NonwearBlock(index: 0, firstRow: firstRow)]
        heldBase = firstRow
        heldEnd = firstRow
        lastTime = origin
    }

    /// Takes in the rows of `batch` from `from` on, which follow every row taken before, and
    /// appends what became final to `out`. Returns the uptimes of the data samples without
    /// finite axes, which count in no spread.
    mutating func take(_ batch: Batch, from: Int, into out: inout Batch) -> [Double] {
        let base = heldEnd
        held.append(from == 0 ? batch : batch.slice(from..<batch.count))
        heldEnd += batch.count - from
        let xc = batch.column(rule.x)
        let yc = batch.column(rule.y)
        let zc = batch.column(rule.z)
        // Unboxed columns, the common case, are read as plain arrays.
        let xs = xc?.plainDoubles
        let ys = yc?.plainDoubles
        let zs = zc?.plainDoubles
        let unboxed = xs != nil && ys != nil && zs != nil
        var unread: [Double] = []
        // The open block's spreads in locals, stored back before a block opens and at the end.
        var last = blocks.count - 1
        var (bx, by, bz) = (blocks[last].x, blocks[last].y, blocks[last].z)
        var edge = rule.lowEdge(after: blocks[last].index)
        let times = batch.timestamps
        let kinds = batch.kinds
        for i in from..<batch.count where kinds[i] == .data {
            let t = times[i]
            if t.isFinite {
                if t > lastTime { lastTime = t }
                let offset = t - origin
                if offset >= edge {
                    let b = rule.block(of: offset)
                    if b > blocks[last].index {
                        (blocks[last].x, blocks[last].y, blocks[last].z) = (bx, by, bz)
                        open(b, at: base + i - from, into: &out)
                        last = blocks.count - 1
                        (bx, by, bz) = (blocks[last].x, blocks[last].y, blocks[last].z)
                        edge = rule.lowEdge(after: b)
                    }
                }
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
                unread.append(batch.uptimes[i])
                continue
            }
            guard x.isFinite && y.isFinite && z.isFinite else {
                unread.append(batch.uptimes[i])
                continue
            }
            bx.add(x)
            by.add(y)
            bz.add(z)
        }
        (blocks[last].x, blocks[last].y, blocks[last].z) = (bx, by, bz)
        return unread
    }

    /// At the end of input: judges the windows still open, each on the samples it has (as GGIR
    /// cuts its last windows at the end of the data), but none starting in the last step, which
    /// the end cut short; then passes every held row on and closes the span.
    mutating func finish(into out: inout Batch) {
        let current = blocks[blocks.count - 1].index
        judgeWindows(through: current - 1)
        while !blocks.isEmpty {
            let end = blocks.count > 1 ? blocks[1].firstRow : heldEnd
            passOn(blocks[0], upTo: end, into: &out)
            blocks.removeFirst()
        }
        if let span { out.append(span.event(origin: origin, step: rule.step, lastTime: lastTime)) }
        span = nil
        held.removeAll()
    }

    /// Opens block `b` at row `row`: the windows that ended before it are judged, and the
    /// blocks they were the last to cover are passed on.
    private mutating func open(_ b: Int, at row: Int, into out: inout Batch) {
        let current = blocks[blocks.count - 1].index
        blocks.append(NonwearBlock(index: b, firstRow: row))
        // Windows past `current` and before `b` cover no sample (a gap in the recording).
        judgeWindows(through: min(b - rule.stepsPerWindow, current))
        nextWindow = max(nextWindow, b - rule.stepsPerWindow + 1)
        while blocks[0].index < nextWindow {
            passOn(blocks[0], upTo: blocks[1].firstRow, into: &out)
            blocks.removeFirst()
        }
    }

    /// Judges every window from `nextWindow` to `last` that covers a held block.
    private mutating func judgeWindows(through last: Int) {
        let k = rule.stepsPerWindow
        var w = max(nextWindow, blocks[0].index - k + 1, 0)
        while w <= last {
            judge(window: w)
            w += 1
        }
        nextWindow = max(nextWindow, last + 1)
    }

    /// Applies the rule to the window of `stepsPerWindow` steps from step `w` (the held blocks in
    /// it: a gap or the end of input shortens it), and marks the axes it found still on each.
    private mutating func judge(window w: Int) {
        let end = w + rule.stepsPerWindow
        var sx = WindowSpread()
        var sy = WindowSpread()
        var sz = WindowSpread()
        for block in blocks where block.index >= w && block.index < end {
            sx.merge(block.x)
            sy.merge(block.y)
            sz.merge(block.z)
        }
        var still: UInt8 = 0
        if sx.isStill(sd: rule.sd, range: rule.range) { still |= 1 }
        if sy.isStill(sd: rule.sd, range: rule.range) { still |= 2 }
        if sz.isStill(sd: rule.sd, range: rule.range) { still |= 4 }
        guard still != 0 else { return }
        for i in blocks.indices where blocks[i].index >= w && blocks[i].index < end {
            blocks[i].stillAxes |= still
        }
    }

    /// Passes the rows of `block` (to row `end`) on, flagged or dropped, after the event of the
    /// span a worn block or a gap ends. The rows leave `held` from its front, in the pieces they
    /// came in: each is marked, and they are joined into `out`, their one copy.
    private mutating func passOn(_ block: NonwearBlock, upTo end: Int, into out: inout Batch) {
        let nonwear = block.isNonwear(axes: rule.axes)
        if let open = span, !(nonwear && open.lastBlock == block.index - 1) {
            out.append(open.event(origin: origin, step: rule.step, lastTime: lastTime))
            span = nil
        }
        var s = span ?? NonwearSpan(firstBlock: block.index, lastBlock: block.index)
        s.lastBlock = block.index
        var pieces: [Batch] = []
        while heldBase < end, let first = held.first {
            let n = min(first.count, end - heldBase)
            var piece: Batch
            if n == first.count {
                held.removeFirst()
                piece = first
            } else {
                held[held.startIndex] = first.slice(n..<first.count)
                piece = first.slice(0..<n)
            }
            heldBase += n
            if nonwear {
                s.samples += piece.kinds.reduce(0) { $0 + ($1 == .data ? 1 : 0) }
                if let u = piece.uptimes.last { s.lastUptime = u }
                if let p = piece.stepPaths.last { s.stepPath = p }
            }
            rule.mark(&piece, nonwear: nonwear)
            pieces.append(piece)
        }
        out.append(contentsOf: pieces)
        if nonwear { span = s }
    }
}
