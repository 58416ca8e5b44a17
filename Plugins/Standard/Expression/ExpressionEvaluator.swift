import DAQCore

/// Evaluates an expression row by row over one batch, with field slots resolved to columns
/// once per batch, not once per sample.
struct ExpressionEvaluator {
    private let batch: Batch
    /// Per slot: a column index, or a negative code for metadata (-1 missing, -2 uptime, …).
    private let columns: [Int]

    init(batch: Batch, fields: [String]) {
        self.batch = batch
        columns = fields.map { name in
            if let c = batch.columnIndex(name) { return c }
            switch name {
            case "uptime": return -2
            case "timestamp": return -3
            case "stepPath": return -4
            case "stream": return -5
            case "kind": return -6
            default: return -1
            }
        }
    }

    func evaluate(_ node: Expression.Node, row: Int) -> Value {
        switch node {
        case .literal(let v): return v
        case .field(let slot):
            let c = columns[slot]
            switch c {
            case 0...: return batch.columns[c][row]
            case -2: return .double(batch.uptimes[row])
            case -3: return .double(batch.timestamps[row])
            case -4: return .string(batch.stepPaths[row])
            case -5: return .string(batch.stream)
            case -6: return .string(batch.kinds[row].name)
            default: return .null
            }
        case .not(let inner): return .bool(!evaluate(inner, row: row).isTrue)
        case .negate(let inner):
            switch evaluate(inner, row: row) {
            case .int(let n): return .int(-n)
            case .double(let d): return .double(-d)
            default: return .null
            }
        case .binary(let op, let l, let r):
            switch op {
            case .and: return .bool(evaluate(l, row: row).isTrue && evaluate(r, row: row).isTrue)
            case .or: return .bool(evaluate(l, row: row).isTrue || evaluate(r, row: row).isTrue)
            default: return Self.apply(op, evaluate(l, row: row), evaluate(r, row: row))
            }
        }
    }

    static func apply(_ op: Expression.BinaryOperator, _ a: Value, _ b: Value) -> Value {
        switch op {
        case .equal: return .bool(equal(a, b))
        case .notEqual: return .bool(!equal(a, b))
        case .less, .lessOrEqual, .greater, .greaterOrEqual:
            guard let order = compare(a, b) else { return .bool(false) }
            switch op {
            case .less: return .bool(order < 0)
            case .lessOrEqual: return .bool(order <= 0)
            case .greater: return .bool(order > 0)
            default: return .bool(order >= 0)
            }
        default:
            if case .int(let x) = a, case .int(let y) = b {
                switch op {
                case .add: return .int(x &+ y)
                case .subtract: return .int(x &- y)
                case .multiply: return .int(x &* y)
                case .divide: return y == 0 ? .null : .double(Double(x) / Double(y))
                case .remainder: return y == 0 ? .null : .int(x % y)
                default: return .null
                }
            }
            if op == .add, case .string(let x) = a, case .string(let y) = b { return .string(x + y) }
            guard let x = a.doubleValue, let y = b.doubleValue else { return .null }
            switch op {
            case .add: return .double(x + y)
            case .subtract: return .double(x - y)
            case .multiply: return .double(x * y)
            case .divide: return y == 0 ? .null : .double(x / y)
            case .remainder: return y == 0 ? .null : .double(x.truncatingRemainder(dividingBy: y))
            default: return .null
            }
        }
    }

    static func equal(_ a: Value, _ b: Value) -> Bool {
        if let x = a.doubleValue, let y = b.doubleValue { return x == y }
        return a == b
    }

    /// -1, 0 or 1 for numbers and for strings; `nil` when the two cannot be ordered.
    static func compare(_ a: Value, _ b: Value) -> Int? {
        if let x = a.doubleValue, let y = b.doubleValue { return x < y ? -1 : x > y ? 1 : 0 }
        if case .string(let x) = a, case .string(let y) = b { return x < y ? -1 : x > y ? 1 : 0 }
        return nil
    }
}
