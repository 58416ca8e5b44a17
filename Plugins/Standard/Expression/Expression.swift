import DAQCore

/// A filter expression, parsed once at validation: comparisons, arithmetic, `&&` `||` `!`,
/// `null`, numbers, strings and field names.
///
/// A field a sample lacks, or a value of the wrong type in arithmetic, is `null`; `null` is false
/// in a condition, so `temp > 30` drops samples without `temp` instead of failing the run.
/// Besides fields, `uptime`, `timestamp`, `stepPath`, `stream` and `kind` name the sample's
/// metadata (a field of the same name wins).
public struct Expression: Sendable {
    indirect enum Node: Sendable {
        case literal(Value)
        case field(slot: Int)
        case not(Node)
        case negate(Node)
        case binary(BinaryOperator, Node, Node)
    }

    enum BinaryOperator: String, Sendable {
        case or = "||"
        case and = "&&"
        case equal = "=="
        case notEqual = "!="
        case less = "<"
        case lessOrEqual = "<="
        case greater = ">"
        case greaterOrEqual = ">="
        case add = "+"
        case subtract = "-"
        case multiply = "*"
        case divide = "/"
        case remainder = "%"
    }

    /// The text it was parsed from.
    public let text: String
    let root: Node
    /// Field names, indexed by slot.
    let fields: [String]

    /// Parses `text`.
    /// - Throws: ``ExpressionError`` with the offset of the offending token.
    public init(_ text: String) throws(ExpressionError) {
        var parser = ExpressionParser(text)
        let root = try parser.parse()
        self.text = text
        self.root = root
        self.fields = parser.fieldNames
    }

    /// Evaluates the expression for every sample of `batch` and says which satisfy it.
    public func matches(_ batch: Batch) -> (keep: [Bool], kept: Int) {
        let evaluator = ExpressionEvaluator(batch: batch, fields: fields)
        var keep = [Bool](repeating: false, count: batch.count)
        var kept = 0
        for row in 0..<batch.count where evaluator.evaluate(root, row: row).isTrue {
            keep[row] = true
            kept += 1
        }
        return (keep, kept)
    }

    /// Evaluates the expression for sample `row` of `batch`.
    public func evaluate(_ batch: Batch, row: Int) -> Value {
        ExpressionEvaluator(batch: batch, fields: fields).evaluate(root, row: row)
    }
}

/// A syntax error in an expression, at a Unicode-scalar offset in its text.
public struct ExpressionError: Error, Sendable, CustomStringConvertible {
    /// Offset of the offending token.
    public var offset: Int
    /// What was expected.
    public var message: String
    public var description: String { "\(message) (at column \(offset + 1) of the expression)" }
}

extension Value {
    /// Truth in a condition: `true`, a non-zero number, a non-empty string.
    var isTrue: Bool {
        switch self {
        case .bool(let b): return b
        case .int(let i): return i != 0
        case .double(let d): return d != 0 && !d.isNaN
        case .string(let s): return !s.isEmpty
        case .null: return false
        default: return true
        }
    }
}
