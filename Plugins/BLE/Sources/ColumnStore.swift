import DAQCore

/// The buffers ``ReportColumns`` fills, kept from batch to batch.
///
/// Writing a field is a store at the end of its column's buffers, with no uniqueness check, no
/// reference counting and no reallocation once the buffers have grown to a batch's length: a
/// report writes fifteen or so fields, and through Swift arrays (one per column, each checked
/// for uniqueness and grown anew per batch) those writes cost more than decoding the report.
/// ``ReportColumns/finish()`` copies the numbers out and moves the texts and boxed values out,
/// and the buffers start the next batch empty.
///
/// # Thread safety
/// None: a store belongs to one ``ReportColumns``, used by one source on its queue.
final class ColumnStore {
    /// Every slot ever used; slots `0..<used` are the columns of the current batch.
    private(set) var table: UnsafeMutablePointer<RawColumn>
    private var slots: Int
    private(set) var used = 0
    /// The column of each ``ReportField`` in the current batch, by raw value; -1 when none.
    let fixed: UnsafeMutablePointer<Int32>
    /// The columns of fields named at run time in the current batch.
    var named: [String: Int32] = [:]

    init() {
        slots = 16
        table = .allocate(capacity: slots)
        // One by one: each slot allocates buffers of its own.
        for i in 0..<slots { (table + i).initialize(to: RawColumn()) }
        fixed = .allocate(capacity: ReportField.allCases.count)
        fixed.initialize(repeating: -1, count: ReportField.allCases.count)
    }

    deinit {
        for i in 0..<slots { table[i].free() }
        table.deinitialize(count: slots)
        table.deallocate()
        fixed.deallocate()
    }

    /// Adds a column named `name` to the current batch; returns its index.
    func add(_ name: String) -> Int32 {
        if used == slots {
            let bigger = UnsafeMutablePointer<RawColumn>.allocate(capacity: slots * 2)
            bigger.moveInitialize(from: table, count: slots)
            for i in slots..<(slots * 2) { (bigger + i).initialize(to: RawColumn()) }
            table.deallocate()
            table = bigger
            slots *= 2
        }
        table[used].name = name
        used += 1
        return Int32(used - 1)
    }

    /// Forgets the current batch's columns; their values must have been taken out.
    func reset() {
        for i in 0..<used {
            table[i].count = 0
            table[i].lastRow = -1
            table[i].kind = .empty
        }
        used = 0
        fixed.update(repeating: -1, count: ReportField.allCases.count)
        named.removeAll(keepingCapacity: true)
    }
}

/// One column of a batch being filled: the rows that have a value, ascending, and the values,
/// unboxed while they are all of one type. `rows[0..<count]` and the active kind's values
/// `0..<count` are initialized; the other buffers are only room.
struct RawColumn {
    enum Kind { case empty, ints, doubles, strings, boxed }

    var name = ""
    var kind = Kind.empty
    var count = 0
    /// `rows[count - 1]`, -1 when empty: kept here, beside the other fields read per write,
    /// because loading it from the end of `rows` missed the cache often enough to show.
    var lastRow: Int32 = -1
    /// Room in `rows` and in the active kind's buffer.
    var capacity = 0
    var rows = UnsafeMutablePointer<Int32>.allocate(capacity: 0)
    private var rowsCapacity = 0
    /// Integers or doubles, by bit pattern.
    var words = UnsafeMutablePointer<UInt64>.allocate(capacity: 0)
    private var wordsCapacity = 0
    var strings = UnsafeMutablePointer<String>.allocate(capacity: 0)
    private var stringsCapacity = 0
    var boxed = UnsafeMutablePointer<Value>.allocate(capacity: 0)
    private var boxedCapacity = 0

    /// Whether `row` has a value yet.
    @inline(__always)
    func has(row: Int32) -> Bool { lastRow == row }

    /// A number for `row`, the row being filled; `false` when the column holds another kind.
    @inline(__always)
    mutating func put(word: UInt64, _ k: Kind, row: Int32) -> Bool {
        guard kind == k else { return false }
        if has(row: row) {
            words[count - 1] = word
            return true
        }
        if count == capacity { grow() }
        rows[count] = row
        lastRow = row
        words[count] = word
        count += 1
        return true
    }

    @inline(__always)
    mutating func put(string: String, row: Int32) -> Bool {
        guard kind == .strings else { return false }
        if has(row: row) {
            strings[count - 1] = string
            return true
        }
        if count == capacity { grow() }
        rows[count] = row
        lastRow = row
        (strings + count).initialize(to: string)
        count += 1
        return true
    }

    /// Any value: the first write of a batch sets the column's kind; a value of another kind,
    /// or a null, boxes the column's values from then on.
    mutating func put(_ v: Value, row: Int32) {
        if kind == .empty {
            switch v {
            case .int: start(.ints)
            case .double: start(.doubles)
            case .string: start(.strings)
            default: start(.boxed)
            }
        }
        switch v {
        case .int(let i): if put(word: UInt64(bitPattern: i), .ints, row: row) { return }
        case .double(let d): if put(word: d.bitPattern, .doubles, row: row) { return }
        case .string(let s): if put(string: s, row: row) { return }
        default: break
        }
        if kind != .boxed { box() }
        if has(row: row) {
            boxed[count - 1] = v
            return
        }
        if count == capacity { grow() }
        rows[count] = row
        lastRow = row
        (boxed + count).initialize(to: v)
        count += 1
    }

    /// The column of `rows` rows, its values taken out: unboxed when every row has one, else
    /// sparse numbers or boxed values with nulls in the gaps.
    mutating func take(rows n: Int, sparse: inout SparseColumns) -> Column {
        defer {
            count = 0
            lastRow = -1
        }
        let dense = count == n
        switch kind {
        case .empty:
            return Column(name: name, absent: n)
        case .ints where dense:
            return Column(name: name, ints: Self.copy(words, n, as: Int64.self))
        case .doubles where dense:
            return Column(name: name, doubles: Self.copy(words, n, as: Double.self))
        case .strings where dense:
            return Column(name: name, strings: Self.move(strings, n))
        case .boxed where dense:
            return Column(name: name, values: Self.move(boxed, n))
        case .ints:
            return sparse.ints(name, count: n) { set in
                for k in 0..<count { set(Int(rows[k]), Int64(bitPattern: words[k])) }
            }
        case .doubles:
            return sparse.doubles(name, count: n) { set in
                for k in 0..<count { set(Int(rows[k]), Double(bitPattern: words[k])) }
            }
        case .strings:
            var out = [Value](repeating: .null, count: n)
            var absent = [Bool](repeating: true, count: n)
            for k in 0..<count {
                out[Int(rows[k])] = .string((strings + k).move())
                absent[Int(rows[k])] = false
            }
            return Column(name: name, values: out, absent: absent)
        case .boxed:
            var out = [Value](repeating: .null, count: n)
            var absent = [Bool](repeating: true, count: n)
            for k in 0..<count {
                out[Int(rows[k])] = (boxed + k).move()
                absent[Int(rows[k])] = false
            }
            return Column(name: name, values: out, absent: absent)
        }
    }

    /// The first `n` words as numbers of type `T`, copied.
    private static func copy<T>(_ words: UnsafeMutablePointer<UInt64>, _ n: Int, as: T.Type) -> [T] {
        words.withMemoryRebound(to: T.self, capacity: n) { Array(UnsafeBufferPointer(start: $0, count: n)) }
    }

    /// Moves `n` initialized values out into an array, leaving the buffer uninitialized.
    private static func move<T>(_ from: UnsafeMutablePointer<T>, _ n: Int) -> [T] {
        [T](unsafeUninitializedCapacity: n) { out, initialized in
            out.baseAddress!.moveInitialize(from: from, count: n)
            initialized = n
        }
    }

    /// Frees the buffers; the column must hold no strings or boxed values.
    mutating func free() {
        if kind == .strings { strings.deinitialize(count: count) }
        if kind == .boxed { boxed.deinitialize(count: count) }
        count = 0
        lastRow = -1
        rows.deallocate()
        words.deallocate()
        strings.deallocate()
        boxed.deallocate()
    }

    private mutating func start(_ k: Kind) {
        kind = k
        capacity = Swift.min(rowsCapacity, kindCapacity)
    }

    private var kindCapacity: Int {
        switch kind {
        case .ints, .doubles: return wordsCapacity
        case .strings: return stringsCapacity
        case .boxed: return boxedCapacity
        case .empty: return 0
        }
    }

    /// Doubles the room in `rows` and in the active kind's buffer.
    private mutating func grow() {
        let wanted = Swift.max(64, capacity * 2)
        if rowsCapacity < wanted { Self.grow(&rows, &rowsCapacity, count, to: wanted) }
        switch kind {
        case .ints, .doubles: if wordsCapacity < wanted { Self.grow(&words, &wordsCapacity, count, to: wanted) }
        case .strings: if stringsCapacity < wanted { Self.grow(&strings, &stringsCapacity, count, to: wanted) }
        case .boxed: if boxedCapacity < wanted { Self.grow(&boxed, &boxedCapacity, count, to: wanted) }
        case .empty: break
        }
        capacity = Swift.min(rowsCapacity, kindCapacity)
    }

    private static func grow<T>(
        _ p: inout UnsafeMutablePointer<T>, _ capacity: inout Int, _ count: Int, to wanted: Int
    ) {
        let bigger = UnsafeMutablePointer<T>.allocate(capacity: wanted)
        bigger.moveInitialize(from: p, count: count)
        p.deallocate()
        p = bigger
        capacity = wanted
    }

    /// The values so far, boxed: a value of another kind, or a null, arrived.
    private mutating func box() {
        if boxedCapacity < capacity { Self.grow(&boxed, &boxedCapacity, 0, to: capacity) }
        for k in 0..<count {
            switch kind {
            case .ints: (boxed + k).initialize(to: .int(Int64(bitPattern: words[k])))
            case .doubles: (boxed + k).initialize(to: .double(Double(bitPattern: words[k])))
            case .strings: (boxed + k).initialize(to: .string((strings + k).move()))
            case .empty, .boxed: break
            }
        }
        kind = .boxed
        capacity = Swift.min(rowsCapacity, boxedCapacity)
    }
}
