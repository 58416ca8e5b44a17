import DAQCore

/// Recursive-descent parser; precedence from loosest: `||`, `&&`, comparisons, `+ -`, `* / %`,
/// unary `! -`.
struct ExpressionParser {
    private let scalars: [Unicode.Scalar]
    private var i = 0
    private(set) var fieldNames: [String] = []

    init(_ text: String) { scalars = Array(text.unicodeScalars) }

    mutating func parse() throws(ExpressionError) -> Expression.Node {
        skipSpace()
        guard i < scalars.count else { throw ExpressionError(offset: 0, message: "empty expression") }
        let node = try or()
        skipSpace()
        if i < scalars.count {
            let token = self.token()
            if ["and", "or"].contains(token) {
                throw ExpressionError(
                    offset: i, message: "'\(token)' is not an operator; use \(token == "and" ? "&&" : "||")")
            }
            throw ExpressionError(offset: i, message: "unexpected '\(token)'; expected an operator or the end")
        }
        return node
    }

    /// The word or the single symbol at the cursor, for messages.
    private func token() -> String {
        var j = i
        while j < scalars.count, scalars[j].properties.isAlphabetic || scalars[j] == "_" { j += 1 }
        return String(String.UnicodeScalarView(scalars[i..<max(j, min(i + 1, scalars.count))]))
    }

    private func rest(_ n: Int) -> String {
        String(String.UnicodeScalarView(scalars[i..<min(scalars.count, i + n)]))
    }

    private mutating func skipSpace() {
        while i < scalars.count, scalars[i].properties.isWhitespace { i += 1 }
    }

    private mutating func take(_ op: String) -> Bool {
        skipSpace()
        let s = Array(op.unicodeScalars)
        guard i + s.count <= scalars.count, Array(scalars[i..<(i + s.count)]) == s else { return false }
        // `<` must not eat the first half of `<=`, nor `=` the start of `==` etc.
        if s.count == 1, i + 1 < scalars.count, scalars[i + 1] == "=", ["<", ">", "!"].contains(op) { return false }
        if op == "!", i + 1 < scalars.count, scalars[i + 1] == "=" { return false }
        i += s.count
        return true
    }

    private mutating func or() throws(ExpressionError) -> Expression.Node {
        var left = try and()
        while take("||") { left = .binary(.or, left, try and()) }
        return left
    }

    private mutating func and() throws(ExpressionError) -> Expression.Node {
        var left = try comparison()
        while take("&&") { left = .binary(.and, left, try comparison()) }
        return left
    }

    private mutating func comparison() throws(ExpressionError) -> Expression.Node {
        let left = try additive()
        for op in [Expression.BinaryOperator.equal, .notEqual, .lessOrEqual, .greaterOrEqual, .less, .greater]
        where take(op.rawValue) {
            let right = try additive()
            skipSpace()
            for again in ["==", "!=", "<", ">"] where rest(again.count) == again {
                throw ExpressionError(offset: i, message: "comparisons do not chain; use && between them")
            }
            return .binary(op, left, right)
        }
        skipSpace()
        if i < scalars.count, scalars[i] == "=" {
            throw ExpressionError(offset: i, message: "'=' is not an operator; use '==' to compare")
        }
        return left
    }

    private mutating func additive() throws(ExpressionError) -> Expression.Node {
        var left = try multiplicative()
        while true {
            if take("+") {
                left = .binary(.add, left, try multiplicative())
            } else if take("-") {
                left = .binary(.subtract, left, try multiplicative())
            } else {
                return left
            }
        }
    }

    private mutating func multiplicative() throws(ExpressionError) -> Expression.Node {
        var left = try unary()
        while true {
            if take("*") {
                left = .binary(.multiply, left, try unary())
            } else if take("/") {
                left = .binary(.divide, left, try unary())
            } else if take("%") {
                left = .binary(.remainder, left, try unary())
            } else {
                return left
            }
        }
    }

    private mutating func unary() throws(ExpressionError) -> Expression.Node {
        if take("!") { return .not(try unary()) }
        if take("-") { return .negate(try unary()) }
        return try primary()
    }

    private mutating func primary() throws(ExpressionError) -> Expression.Node {
        skipSpace()
        guard i < scalars.count else {
            throw ExpressionError(offset: i, message: "unexpected end of expression; expected a value")
        }
        let c = scalars[i]
        if c == "(" {
            let open = i
            i += 1
            let inner = try or()
            guard take(")") else { throw ExpressionError(offset: open, message: "'(' is never closed") }
            return inner
        }
        if c == "\"" || c == "'" { return .literal(.string(try string(quote: c))) }
        if c.properties.numericType != nil || c == "." { return .literal(try number()) }
        if c.properties.isAlphabetic || c == "_" {
            let start = i
            while i < scalars.count,
                scalars[i].properties.isAlphabetic || scalars[i].properties.numericType != nil
                    || scalars[i] == "_" || scalars[i] == "."
            {
                i += 1
            }
            let word = String(String.UnicodeScalarView(scalars[start..<i]))
            switch word {
            case "true": return .literal(.bool(true))
            case "false": return .literal(.bool(false))
            case "null": return .literal(.null)
            case "and", "or", "not":
                throw ExpressionError(
                    offset: start,
                    message: "'\(word)' is not an operator; use \(word == "and" ? "&&" : word == "or" ? "||" : "!")")
            default:
                if let slot = fieldNames.firstIndex(of: word) { return .field(slot: slot) }
                fieldNames.append(word)
                return .field(slot: fieldNames.count - 1)
            }
        }
        throw ExpressionError(offset: i, message: "unexpected '\(c)'; expected a number, a string, a field name or '('")
    }

    private mutating func string(quote: Unicode.Scalar) throws(ExpressionError) -> String {
        let start = i
        i += 1
        var out = String.UnicodeScalarView()
        while i < scalars.count, scalars[i] != quote {
            if scalars[i] == "\\", i + 1 < scalars.count { i += 1 }
            out.append(scalars[i])
            i += 1
        }
        guard i < scalars.count else { throw ExpressionError(offset: start, message: "string is never closed") }
        i += 1
        return String(out)
    }

    private mutating func number() throws(ExpressionError) -> Value {
        let start = i
        while i < scalars.count,
            scalars[i].properties.numericType != nil || scalars[i] == "." || scalars[i] == "e"
                || scalars[i] == "E"
                || ((scalars[i] == "-" || scalars[i] == "+") && (scalars[i - 1] == "e" || scalars[i - 1] == "E"))
        {
            i += 1
        }
        let text = String(String.UnicodeScalarView(scalars[start..<i]))
        if let n = Int64(text) { return .int(n) }
        if let d = Double(text) { return .double(d) }
        throw ExpressionError(offset: start, message: "'\(text)' is not a number")
    }
}
