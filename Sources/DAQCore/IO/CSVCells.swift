/// Splits CSV lines into cells: the one splitter behind every reader of CSV records
/// (`motion.replay`'s CSV recordings, and the CSV records of the `file` and `stdin` sources), so
/// a cell reads the same in each.
///
/// RFC 4180, plus what device exports need: a quoted cell may follow spaces after the delimiter,
/// as tools that write `", "` between cells produce (`1, "a,b"` is two cells, `1` and `a,b`). The
/// spaces before such a quote are dropped; every other space is kept, since what a cell means
/// (a number around which spaces do not count, or text in which they do) is the reader's call.
/// Inside quotes, a delimiter is text and `""` is one quote; a quote after other text is text.
/// On input RFC 4180 allows, the cells are exactly the RFC's.
public enum CSVCells {
    /// The cells of `line`, which holds no line break.
    public static func split(_ line: UnsafeBufferPointer<UInt8>, delimiter: UInt8) -> [[UInt8]] {
        let quote = UInt8(ascii: "\"")
        var cells: [[UInt8]] = []
        var cell: [UInt8] = []
        var quoted = false
        var i = 0
        while i < line.count {
            let b = line[i]
            if quoted {
                if b == quote {
                    if i + 1 < line.count, line[i + 1] == quote {
                        cell.append(b)
                        i += 1
                    } else {
                        quoted = false
                    }
                } else {
                    cell.append(b)
                }
            } else if b == quote, cell.allSatisfy({ $0 == 0x20 }) {
                quoted = true
                cell.removeAll(keepingCapacity: true)
            } else if b == delimiter {
                cells.append(cell)
                cell = []
            } else {
                cell.append(b)
            }
            i += 1
        }
        cells.append(cell)
        return cells
    }

    /// The cells of `line`, which holds no line break.
    public static func split(_ line: [UInt8], delimiter: UInt8) -> [[UInt8]] {
        line.withUnsafeBufferPointer { split($0, delimiter: delimiter) }
    }
}
