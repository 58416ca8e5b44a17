/// The values of one column for the row group being built, kept unboxed and without nulls
/// (a null is a definition level of 0), ready to be encoded as a column chunk.
///
/// Text is dictionary-coded as it comes: each distinct string is stored once and each row holds
/// its index, so a `stepPath` repeated a million times costs a million `UInt32`s, and a
/// dictionary page plus RLE indices is what gets written unless the dictionary grows too large.
/// Only the array of the column's physical type is used; the others stay empty.
///
/// # Thread safety
/// Not thread-safe: owned by one file writer on its sink's queue.
final class ParquetColumnBuffer {
    let schema: ParquetColumnSchema
    /// DOUBLE values.
    private(set) var doubles: [Double] = []
    /// INT64 values.
    private(set) var ints: [Int64] = []
    /// BOOLEAN values.
    private(set) var bools: [Bool] = []
    /// UTF-8 text: `entries[indices[i]]` is value `i`.
    private(set) var indices: [UInt32] = []
    private(set) var entries: [String] = []
    /// Raw bytes (`bytes` fields), written PLAIN.
    private(set) var binaries: [[UInt8]] = []
    /// Definition levels, one per row, for an optional column (1 = a value, 0 = null).
    private(set) var levels: [UInt8] = []
    private(set) var rowCount = 0
    private(set) var nullCount = 0
    private var lookup: [String: UInt32] = [:]
    /// UTF-8 bytes in the dictionary, to decide when to fall back to PLAIN.
    private(set) var dictionaryBytes = 0

    init(schema: ParquetColumnSchema) {
        self.schema = schema
    }

    /// Whether the column holds text (dictionary-coded) rather than raw bytes.
    var isText: Bool { schema.type == .byteArray && schema.logicalType == .string }

    /// The number of values that are not null.
    var valueCount: Int { rowCount - nullCount }

    /// Empties the buffer for the next row group, keeping its capacity.
    func reset() {
        doubles.removeAll(keepingCapacity: true)
        ints.removeAll(keepingCapacity: true)
        bools.removeAll(keepingCapacity: true)
        indices.removeAll(keepingCapacity: true)
        entries.removeAll(keepingCapacity: true)
        binaries.removeAll()
        levels.removeAll(keepingCapacity: true)
        lookup.removeAll(keepingCapacity: true)
        rowCount = 0
        nullCount = 0
        dictionaryBytes = 0
    }

    // The appends are the hot path: no boxing, and no allocation for text already seen.

    func appendNull(count: Int = 1) {
        precondition(schema.optional, "column \(schema.name) cannot hold nulls")
        levels.append(contentsOf: repeatElement(0, count: count))
        nullCount += count
        rowCount += count
    }

    private func present(_ count: Int) {
        if schema.optional { levels.append(contentsOf: repeatElement(1, count: count)) }
        rowCount += count
    }

    func append(doubles source: ArraySlice<Double>) {
        doubles.append(contentsOf: source)
        present(source.count)
    }

    func append(double v: Double) {
        doubles.append(v)
        present(1)
    }

    func append(ints source: ArraySlice<Int64>) {
        ints.append(contentsOf: source)
        present(source.count)
    }

    func append(int v: Int64) {
        ints.append(v)
        present(1)
    }

    func append(bools source: ArraySlice<Bool>) {
        bools.append(contentsOf: source)
        present(source.count)
    }

    func append(bool v: Bool) {
        bools.append(v)
        present(1)
    }

    func append(strings source: ArraySlice<String>) {
        // Text repeats row after row (a step path, a label): comparing with the previous value
        // is cheaper than hashing, and equal strings sharing storage compare at once.
        var last: String?
        var lastIndex: UInt32 = 0
        for s in source {
            if s != last {
                lastIndex = index(of: s)
                last = s
            }
            indices.append(lastIndex)
        }
        present(source.count)
    }

    func append(string v: String) {
        indices.append(index(of: v))
        present(1)
    }

    /// Appends the same text `count` times (a marker's kind, a segment's constant step).
    func append(string v: String, count: Int) {
        let i = index(of: v)
        indices.append(contentsOf: repeatElement(i, count: count))
        present(count)
    }

    func append(bytes v: [UInt8]) {
        binaries.append(v)
        present(1)
    }

    private func index(of s: String) -> UInt32 {
        if let index = lookup[s] { return index }
        let index = UInt32(entries.count)
        lookup[s] = index
        entries.append(s)
        dictionaryBytes += s.utf8.count
        return index
    }
}
