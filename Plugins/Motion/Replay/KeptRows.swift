/// The rows of a read buffer a replay keeps, in ascending order. Nearly always they are the
/// first `count` rows, which needs no list: their columns are then the buffer's own arrays (or
/// a prefix of them), with no per-row copy.
struct KeptRows {
    private(set) var count = 0
    /// The kept rows' indices, once a row was skipped before a kept one; `nil` while the kept
    /// rows are `0..<count`.
    private var indices: [Int]?

    /// No row kept yet.
    init() {}

    /// Every one of a buffer's `count` rows kept.
    init(all count: Int) {
        self.count = count
    }

    /// Keeps row `i`, which comes after every row kept so far.
    mutating func keep(_ i: Int) {
        if indices == nil {
            if i == count {
                count += 1
                return
            }
            indices = Array(0..<count)
        }
        indices!.append(i)
        count += 1
    }

    /// The buffer row of the `k`-th kept row.
    func index(_ k: Int) -> Int { indices?[k] ?? k }

    /// The kept rows of `values`, a column of the buffer.
    func gather<T>(_ values: [T]) -> [T] {
        guard let indices else { return count == values.count ? values : Array(values[0..<count]) }
        return indices.map { values[$0] }
    }
}
