import DAQCore

/// `motion.nonwear`'s settings as the detector uses them: thresholds in g, the window in steps.
struct NonwearRule {
    let step: Double
    let stepsPerWindow: Int
    /// Standard deviation and range an axis stays under to be still, g.
    let sd: Double
    let range: Double
    let axes: Int
    let mode: NonwearMode
    let field: String
    let x: String
    let y: String
    let z: String

    init(_ c: NonwearConfiguration) {
        step = c.step.value
        stepsPerWindow = c.stepsPerWindow
        sd = c.sdMg / 1000
        range = c.rangeMg / 1000
        axes = c.axes
        mode = c.mode
        field = c.field
        x = c.x
        y = c.y
        z = c.z
    }

    /// The step holding a sample `offset` seconds after the origin; a time before the origin
    /// counts as step 0, and one absurdly far ahead saturates rather than overflowing.
    func block(of offset: Double) -> Int {
        let q = (offset / step).rounded(.down)
        return q <= 0 ? 0 : q < 1e15 ? Int(q) : Int(1e15)
    }

    /// An offset below which no sample can fall in a step after `b`: a hair under that step's
    /// start, so a sample below it needs no division, and one at or above it is placed by
    /// ``block(of:)`` as ever.
    func lowEdge(after b: Int) -> Double {
        Double(b + 1) * step * (1 - 1e-9)
    }

    /// Flags the data rows of `chunk` (markers and events get no field) or, when dropping, leaves
    /// out its data rows if they are non-wear.
    func mark(_ chunk: inout Batch, nonwear: Bool) {
        switch mode {
        case .flag:
            if !chunk.kinds.contains(where: { $0 != .data }) {
                // Data rows only, the common case: one unboxed flag per row.
                chunk.setColumn(Column(name: field, bools: Array(repeating: nonwear, count: chunk.count)))
                return
            }
            var values: [Value] = []
            var absent: [Bool] = []
            values.reserveCapacity(chunk.count)
            absent.reserveCapacity(chunk.count)
            for kind in chunk.kinds {
                values.append(kind == .data ? .bool(nonwear) : .null)
                absent.append(kind != .data)
            }
            chunk.setColumn(Column(name: field, values: values, absent: absent))
        case .drop:
            guard nonwear else { return }
            let keep = chunk.kinds.map { $0 != .data }
            chunk.retain(keep, kept: keep.reduce(0) { $0 + ($1 ? 1 : 0) })
        }
    }
}
