/// Which column followed which within a row, learned while a ``BatchBuilder`` fills rows.
///
/// Sources write a row's fields in a fixed order per kind of sample, so the column after a
/// given one is nearly always one of two: the one that followed it last time, or, where two
/// kinds of sample alternate (an iBeacon report after a Ruuvi one), the one before that. A
/// guess is checked against the name, so a wrong one only costs the search it was meant to
/// save. Names the same literal compare by identity, without reading their bytes.
@usableFromInline
struct ColumnSuccessors {
    /// `recent[previous + 1]` is the column written after column `previous` (-1: at the start
    /// of a row) the last time; `older` the one before that; -1 when none.
    @usableFromInline var recent: [Int] = []
    @usableFromInline var older: [Int] = []

    @usableFromInline init() {}

    /// The index of the column named `name` among `columns` when it is one of the two that
    /// followed `previous` before, else -1.
    @inlinable
    func guess(after previous: Int, _ name: String, in columns: [ColumnBuffer]) -> Int {
        let k = previous + 1
        guard k < recent.count else { return -1 }
        let a = recent[k]
        if a >= 0 && columns[a].name == name { return a }
        let b = older[k]
        if b >= 0 && columns[b].name == name { return b }
        return -1
    }

    /// Records that column `column` followed `previous`.
    @usableFromInline
    mutating func learn(_ column: Int, after previous: Int) {
        let k = previous + 1
        if k >= recent.count {
            let grow = k + 1 - recent.count
            recent.append(contentsOf: repeatElement(-1, count: grow))
            older.append(contentsOf: repeatElement(-1, count: grow))
        }
        if recent[k] != column {
            older[k] = recent[k]
            recent[k] = column
        }
    }
}
