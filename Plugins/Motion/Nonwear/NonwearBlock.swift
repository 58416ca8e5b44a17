/// One step of time, from its first sample to the next step's: the axes' spreads and the axes
/// that windows over it found still.
struct NonwearBlock {
    /// Steps from the origin: the block holds the samples timed in
    /// `[origin + index × step, origin + (index + 1) × step)`.
    let index: Int
    /// The block's first row, counted over every row the stage has taken in: its rows run to the
    /// next block's first row.
    let firstRow: Int
    var x = AxisSpread()
    var y = AxisSpread()
    var z = AxisSpread()
    /// A bit per axis (x 1, y 2, z 4), set when a judged window over the block found it still.
    var stillAxes: UInt8 = 0

    init(index: Int, firstRow: Int) {
        self.index = index
        self.firstRow = firstRow
    }

    /// Whether the block is non-wear: at least `axes` axes still in some window over it, as GGIR
    /// counts per axis over the windows that flag a block.
    func isNonwear(axes: Int) -> Bool { stillAxes.nonzeroBitCount >= axes }
}
