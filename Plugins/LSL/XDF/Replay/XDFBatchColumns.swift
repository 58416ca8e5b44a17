import DAQCore

/// The columns of one batch of merged samples, filled row by row as the merge picks them:
/// each field's values in the storage its declared type calls for, `nil` in rows of streams that
/// do not have it. A column whose every row has a value is stored dense.
struct XDFBatchColumns {
    private enum Store {
        case doubles([Double?])
        case ints([Int64?])
        case strings([String?])
    }

    private let fields: [FieldDescriptor]
    private var stores: [Store]
    private var used: [Bool]
    private(set) var names: [String] = []
    private(set) var rows = 0

    init(fields: [FieldDescriptor], capacity: Int) {
        self.fields = fields
        stores = fields.map { f in
            switch f.type {
            case .double: return .doubles([])
            case .int: return .ints([])
            default: return .strings([])
            }
        }
        used = Array(repeating: false, count: fields.count)
        names.reserveCapacity(capacity)
    }

    /// Starts a row of stream `name`: every field absent until set.
    mutating func addRow(stream name: String) {
        names.append(name)
        rows += 1
        for i in stores.indices where used[i] { pad(i) }
    }

    private mutating func pad(_ i: Int) {
        switch stores[i] {
        case .doubles(var a):
            stores[i] = .ints([])
            while a.count < rows { a.append(nil) }
            stores[i] = .doubles(a)
        case .ints(var a):
            stores[i] = .doubles([])
            while a.count < rows { a.append(nil) }
            stores[i] = .ints(a)
        case .strings(var a):
            stores[i] = .doubles([])
            while a.count < rows { a.append(nil) }
            stores[i] = .strings(a)
        }
    }

    private mutating func open(_ i: Int) {
        if !used[i] {
            used[i] = true
            pad(i)
        }
    }

    /// Sets field `i` of the current row.
    mutating func set(double value: Double, field i: Int) {
        open(i)
        switch stores[i] {
        case .doubles(var a):
            stores[i] = .ints([])
            a[rows - 1] = value
            stores[i] = .doubles(a)
        case .strings(var a):
            stores[i] = .doubles([])
            a[rows - 1] = String(value)
            stores[i] = .strings(a)
        case .ints:
            break
        }
    }

    mutating func set(int value: Int64, field i: Int) {
        open(i)
        switch stores[i] {
        case .ints(var a):
            stores[i] = .doubles([])
            a[rows - 1] = value
            stores[i] = .ints(a)
        case .doubles(var a):
            stores[i] = .ints([])
            a[rows - 1] = Double(value)
            stores[i] = .doubles(a)
        case .strings(var a):
            stores[i] = .doubles([])
            a[rows - 1] = String(value)
            stores[i] = .strings(a)
        }
    }

    mutating func set(string value: String, field i: Int) {
        open(i)
        if case .strings(var a) = stores[i] {
            stores[i] = .doubles([])
            a[rows - 1] = value
            stores[i] = .strings(a)
        }
    }

    /// The columns: `stream_name`, then each field some row has, in the descriptor's order.
    func columns() -> [Column] {
        var out = [Column(name: XDFFieldPlan.streamField, strings: names)]
        for i in stores.indices where used[i] {
            let name = fields[i].name
            switch stores[i] {
            case .doubles(let a):
                if !a.contains(nil) {
                    out.append(Column(name: name, doubles: a.map { $0! }))
                } else {
                    var c = Column(name: name, absentDoubles: a.count)
                    for (k, v) in a.enumerated() { if let v { c.set(.double(v), at: k) } }
                    out.append(c)
                }
            case .ints(let a):
                if !a.contains(nil) {
                    out.append(Column(name: name, ints: a.map { $0! }))
                } else {
                    var c = Column(name: name, absentInts: a.count)
                    for (k, v) in a.enumerated() { if let v { c.set(.int(v), at: k) } }
                    out.append(c)
                }
            case .strings(let a):
                if !a.contains(nil) {
                    out.append(Column(name: name, strings: a.map { $0! }))
                } else {
                    out.append(
                        Column(name: name, values: a.map { $0.map(Value.string) ?? .null }, absent: a.map { $0 == nil })
                    )
                }
            }
        }
        return out
    }
}
