/// Samples handed from one stage to the next, stored column by column.
///
/// A queue hop costs more than most transforms' work per sample, so stages never exchange
/// single samples. The per-sample metadata (`uptime`, `timestamp`, `stepPath`, `kind`) are
/// parallel arrays and each field is a ``Column``; a field a sample lacks reads as `null`.
/// `Batch` is a value type with copy-on-write storage: fanning a batch out to several stages
/// copies nothing until one of them mutates it.
public struct Batch: Sendable {
    /// The id of the stage that produced the batch; the engine stamps it on emission.
    public var stream: String
    /// Run-clock seconds, one per sample.
    public private(set) var uptimes: [Double]
    /// Seconds since 1970, one per sample.
    public private(set) var timestamps: [Double]
    /// Step paths, one per sample.
    public private(set) var stepPaths: [String]
    /// Kinds, one per sample.
    public private(set) var kinds: [SampleKind]
    /// The fields, one column each.
    public internal(set) var columns: [Column]
    /// Where ``ensureColumn(_:)`` looks first: sources add fields in the same order sample
    /// after sample, so the column after the last one found is nearly always the next one.
    private var columnHint = 0
    /// The stream's descriptor as the engine stamped it on emission.
    var declared: DeclaredStream?

    /// The descriptor of the stream this batch belongs to, as it stood when the batch was
    /// emitted: a change (a field met for the first time) comes with the first batch it holds
    /// for. `nil` for a batch no stage has emitted yet, such as one a plugin is building.
    public var descriptor: StreamDescriptor? {
        get { declared?.descriptor }
        set { declared = newValue.map(DeclaredStream.init) }
    }

    /// Creates an empty batch, reserving room for `capacity` samples.
    public init(stream: String = "", capacity: Int = 0) {
        self.stream = stream
        uptimes = []
        timestamps = []
        stepPaths = []
        kinds = []
        columns = []
        if capacity > 0 {
            uptimes.reserveCapacity(capacity)
            timestamps.reserveCapacity(capacity)
            stepPaths.reserveCapacity(capacity)
            kinds.reserveCapacity(capacity)
        }
    }

    /// Creates a batch from materialized samples.
    public init(stream: String = "", samples: [Sample]) {
        self.init(stream: stream, capacity: samples.count)
        for s in samples { append(s) }
    }

    /// The number of samples.
    @inlinable
    public var count: Int { uptimes.count }

    /// Whether the batch holds no sample.
    @inlinable
    public var isEmpty: Bool { uptimes.isEmpty }

    /// The index of the column named `name`.
    public func columnIndex(_ name: String) -> Int? {
        columns.firstIndex { $0.name == name }
    }

    /// The column named `name`.
    public func column(_ name: String) -> Column? {
        columnIndex(name).map { columns[$0] }
    }

    /// The value of `field` for sample `index`, `nil` when the batch has no such column.
    public func value(_ field: String, at index: Int) -> Value? {
        columnIndex(field).map { columns[$0][index] }
    }

    /// Materializes sample `index`: the fields it has, nulls included; a field only another
    /// sample of the batch has is left out.
    public subscript(index: Int) -> Sample {
        var fields = Fields()
        for c in columns where !c.isAbsent(index) { fields[c.name] = c[index] }
        return Sample(
            stream: stream, timestamp: timestamps[index], uptime: uptimes[index],
            stepPath: stepPaths[index], kind: kinds[index], fields: fields)
    }

    /// Every sample, materialized.
    public var samples: [Sample] { (0..<count).map { self[$0] } }

    /// Appends a sample; a field new to the batch adds a column, null for earlier samples.
    public mutating func append(_ sample: Sample) {
        let row = appendRow(
            uptime: sample.uptime, timestamp: sample.timestamp, stepPath: sample.stepPath, kind: sample.kind)
        for (key, value) in sample.fields.pairs {
            let c = ensureColumn(key)
            columns[c].append(value)
        }
        padColumns(to: row + 1)
    }

    /// Appends the metadata of one sample and returns its index. Call ``append(_:toColumn:)``
    /// for each field, then ``padColumns(to:)`` if some columns got no value.
    @discardableResult
    public mutating func appendRow(uptime: Double, timestamp: Double, stepPath: String = "", kind: SampleKind = .data)
        -> Int
    {
        uptimes.append(uptime)
        timestamps.append(timestamp)
        stepPaths.append(stepPath)
        kinds.append(kind)
        return uptimes.count - 1
    }

    /// Appends the metadata of `uptimes.count` samples at once, for sources that build their
    /// rows column by column: an empty batch takes the arrays as they are, with no copy.
    /// `stepPaths` and `kinds` are `nil` for data samples with no step, else one per sample.
    /// Add the columns afterwards with ``setColumn(_:)``.
    public mutating func appendRows(
        uptimes newUptimes: [Double], timestamps newTimestamps: [Double], stepPaths newPaths: [String]? = nil,
        kinds newKinds: [SampleKind]? = nil
    ) {
        let n = newUptimes.count
        precondition(newTimestamps.count == n && (newPaths?.count ?? n) == n && (newKinds?.count ?? n) == n)
        if uptimes.isEmpty {
            uptimes = newUptimes
            timestamps = newTimestamps
            stepPaths = newPaths ?? Array(repeating: "", count: n)
            kinds = newKinds ?? Array(repeating: .data, count: n)
            return
        }
        uptimes.append(contentsOf: newUptimes)
        timestamps.append(contentsOf: newTimestamps)
        if let newPaths {
            stepPaths.append(contentsOf: newPaths)
        } else {
            stepPaths.append(contentsOf: repeatElement("", count: n))
        }
        if let newKinds {
            kinds.append(contentsOf: newKinds)
        } else {
            kinds.append(contentsOf: repeatElement(.data, count: n))
        }
    }

    /// The index of column `name`, adding it when missing. Call it after ``appendRow(uptime:timestamp:stepPath:kind:)``:
    /// a new column is null for every sample before the one being filled.
    public mutating func ensureColumn(_ name: String) -> Int {
        let n = columns.count
        let length = name.utf8.count
        var i = columnHint < n ? columnHint : 0
        for _ in 0..<n {
            // Lengths first: most names differ in length, and comparing them costs nothing.
            if columns[i].name.utf8.count == length && columns[i].name == name {
                columnHint = i + 1
                return i
            }
            i = i + 1 == n ? 0 : i + 1
        }
        columns.append(Column(name: name, absent: Swift.max(count - 1, 0)))
        columnHint = n + 1
        return n
    }

    /// Appends `value` to column `index`.
    public mutating func append(_ value: Value, toColumn index: Int) {
        columns[index].append(value)
    }

    /// Appends a double to column `index` without boxing.
    public mutating func append(double: Double, toColumn index: Int) {
        columns[index].append(double: double)
    }

    /// Fills columns shorter than `rows` with absent rows (read as `null`), so every column has
    /// one value per sample: the samples that gave a column no value do not have that field.
    public mutating func padColumns(to rows: Int) {
        for i in columns.indices where columns[i].count < rows {
            while columns[i].count < rows { columns[i].appendAbsent() }
        }
    }

    /// Adds or replaces a whole column; its length must equal `count`.
    public mutating func setColumn(_ column: Column) {
        precondition(column.count == count, "column \(column.name) has \(column.count) values for \(count) samples")
        if let i = columnIndex(column.name) {
            columns[i] = column
        } else {
            columns.append(column)
        }
    }

    /// Removes the column named `name`, if present.
    public mutating func removeColumn(_ name: String) {
        columns.removeAll { $0.name == name }
    }

    /// Keeps only the columns whose names satisfy `keep`, in their current order.
    public mutating func retainColumns(where keep: (String) -> Bool) {
        columns.removeAll { !keep($0.name) }
    }

    /// Renames a column; a column already named `to` is replaced.
    public mutating func renameColumn(_ from: String, to: String) {
        guard from != to, let i = columnIndex(from) else { return }
        columns.removeAll { $0.name == to }
        let j = columnIndex(from) ?? i
        columns[j].name = to
    }

    /// Sorts the columns by their names with `precedes`; equal ones keep their order.
    mutating func sortColumns(by precedes: (String, String) -> Bool) {
        let indexed = columns.enumerated().sorted { a, b in
            precedes(a.element.name, b.element.name)
                || (!precedes(b.element.name, a.element.name) && a.offset < b.offset)
        }
        columns = indexed.map(\.element)
        columnHint = 0
    }

    /// Reorders columns: those named in `order` first, in that order, the rest after.
    public mutating func reorderColumns(_ order: [String]) {
        var head: [Column] = []
        for name in order { if let c = column(name) { head.append(c) } }
        let rest = columns.filter { !order.contains($0.name) }
        columns = head + rest
    }

    /// Sets the step path of sample `index`.
    public mutating func setStepPath(_ path: String, at index: Int) {
        stepPaths[index] = path
    }

    /// Sets the timestamp of sample `index`, seconds since 1970.
    public mutating func setTimestamp(_ timestamp: Double, at index: Int) {
        timestamps[index] = timestamp
    }

    /// Sets the run-clock time of sample `index`.
    public mutating func setUptime(_ uptime: Double, at index: Int) {
        uptimes[index] = uptime
    }

    /// Keeps the samples whose `keep` flag is set; `kept` is how many are set.
    public mutating func retain(_ keep: [Bool], kept: Int) {
        if kept == count { return }
        func pick<T>(_ a: [T]) -> [T] {
            var out = [T]()
            out.reserveCapacity(kept)
            for i in a.indices where keep[i] { out.append(a[i]) }
            return out
        }
        uptimes = pick(uptimes)
        timestamps = pick(timestamps)
        stepPaths = pick(stepPaths)
        kinds = pick(kinds)
        columns = columns.map { $0.filtered(keep, kept: kept) }
    }

    /// The samples in `range`, as a batch of the same stream.
    public func slice(_ range: Range<Int>) -> Batch {
        if range == 0..<count { return self }
        var b = Batch(stream: stream)
        b.declared = declared
        b.uptimes = Array(uptimes[range])
        b.timestamps = Array(timestamps[range])
        b.stepPaths = Array(stepPaths[range])
        b.kinds = Array(kinds[range])
        b.columns = columns.map { $0.slice(range) }
        return b
    }

    /// Appends every sample of `pieces`, in order, aligning columns by name. When the pieces
    /// share their columns, as the batches of one stream do, they are joined with each array
    /// allocated once at its final size (and an empty batch takes the join as it is), so their
    /// rows are not copied again and again: how a stage that held rows back passes them on.
    public mutating func append(contentsOf pieces: [Batch]) {
        guard let head = pieces.first else { return }
        let names = head.columns.map(\.name)
        guard pieces.count > 1, pieces.allSatisfy({ $0.columns.map(\.name) == names }) else {
            for piece in pieces { append(contentsOf: piece) }
            return
        }
        let total = pieces.reduce(0) { $0 + $1.count }
        var joined = Batch(stream: stream, capacity: total)
        for piece in pieces {
            joined.uptimes.append(contentsOf: piece.uptimes)
            joined.timestamps.append(contentsOf: piece.timestamps)
            joined.stepPaths.append(contentsOf: piece.stepPaths)
            joined.kinds.append(contentsOf: piece.kinds)
        }
        joined.columns = names.indices.map { j in
            var column = Column(name: names[j], storage: head.columns[j].storage.emptied(reserving: total))
            for piece in pieces { column.append(contentsOf: piece.columns[j]) }
            return column
        }
        append(contentsOf: joined)
    }

    /// Appends every sample of `other`, aligning columns by name.
    public mutating func append(contentsOf other: Batch) {
        if isEmpty && columns.isEmpty {
            let name = stream
            self = other
            stream = name
            return
        }
        let before = count
        uptimes.append(contentsOf: other.uptimes)
        timestamps.append(contentsOf: other.timestamps)
        stepPaths.append(contentsOf: other.stepPaths)
        kinds.append(contentsOf: other.kinds)
        for c in other.columns {
            if let i = columnIndex(c.name) {
                columns[i].append(contentsOf: c)
            } else {
                var nc = Column(name: c.name, absent: before)
                nc.append(contentsOf: c)
                columns.append(nc)
            }
        }
        padColumns(to: count)
    }
}
