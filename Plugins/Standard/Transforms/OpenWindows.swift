import DAQCore

/// The windows a `window` stage has open, oldest first, and the first it may still open.
///
/// A value the stage takes out of itself for a whole batch: the per-sample work then touches
/// a local, not a class's stored properties, each access to which Swift checks at run time.
struct OpenWindows {
    /// The open windows' numbers, ascending, and beside them their groups: apart, so the
    /// search every sample makes reads integers and never copies a window (a retain and a
    /// release of each array its groups hold).
    private(set) var indices: [Int64] = []
    private var groups: [WindowGroups] = []
    /// Windows below it have been closed and are never opened again.
    private(set) var nextIndex: Int64 = .min
    /// The run-clock time at which the oldest open window closes; infinity while none is open.
    private(set) var closesAt = Double.infinity

    /// The place of window `k`, opened with `fieldCount` fields if it is not open yet.
    mutating func slot(_ k: Int64, fieldCount: Int, slide: Double, size: Double) -> Int {
        var at = 0
        while at < indices.count && indices[at] < k { at += 1 }
        if at < indices.count && indices[at] == k { return at }
        indices.insert(k, at: at)
        groups.insert(WindowGroups(fieldCount: fieldCount), at: at)
        if at == 0 { closesAt = Double(k) * slide + size - 1e-9 }
        return at
    }

    /// Adds a row to the window at `slot`; returns the index of a field that was NaN or infinite.
    mutating func add(
        at slot: Int, key: Value, row: Int, batch: Batch, columns: [Int?], stepPath: String
    ) -> Int? {
        groups[slot].add(key: key, row: row, batch: batch, columns: columns, stepPath: stepPath)
    }

    /// Closes every window that ends at or before `u`, oldest first, handing each to `emit`
    /// with its start.
    mutating func close(before u: Double, slide: Double, size: Double, _ emit: (WindowGroups, Double) -> Void) {
        while u >= closesAt, let k = indices.first {
            indices.removeFirst()
            let closed = groups.removeFirst()
            nextIndex = Swift.max(nextIndex, k + 1)
            closesAt = indices.first.map { Double($0) * slide + size - 1e-9 } ?? .infinity
            emit(closed, Double(k) * slide)
        }
    }
}
