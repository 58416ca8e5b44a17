/// What a reader does with a number that is NaN or infinite: the `nan` setting of every source
/// that parses numbers from text.
public enum NonFinitePolicy: String, ConfigEnum, Sendable {
    /// The row is bad, named by file and line, as a cell that is no number is: the reader's
    /// `on_bad_row` decides whether the run fails or the row is skipped.
    case fail
    /// The row is dropped, reported by file and line, and counted.
    case skip
    /// The value is passed on as it is.
    case keep

    /// The line `daq plugins describe` prints for the key.
    public static let key = ConfigKey(
        "nan", choices, default: "fail",
        "A number cell that is NaN or ±inf (NaN, nan, -nan, inf, -inf, Infinity, -Infinity): fail makes the row bad (file:line), skip drops and counts it, keep passes it on."
    )
}

/// The spellings of NaN and infinity that other tools write: C's `printf` (`nan`, `-nan`, `inf`),
/// numpy and pandas (`nan`, `inf`), R and Excel exports (`NaN`, `Inf`), JavaScript and Python's
/// `json` (`NaN`, `Infinity`, `-Infinity`).
public enum NonFinite {
    /// Parses `nan`, `NaN`, `NAN`, `inf`, `Inf`, `INF`, `infinity`, `Infinity`, `INFINITY`, each
    /// with an optional sign; `nil` for anything else (`Nan` and `info` are text, not numbers).
    public static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
        var i = 0
        var negative = false
        if let first = bytes.first, first == UInt8(ascii: "-") || first == UInt8(ascii: "+") {
            negative = first == UInt8(ascii: "-")
            i = 1
        }
        let word = UnsafeBufferPointer(rebasing: bytes[i...])
        for (spelling, value) in spellings where word.elementsEqual(spelling.utf8) {
            return negative ? -value : value
        }
        return nil
    }

    private static let spellings: [(String, Double)] = [
        ("nan", .nan), ("NaN", .nan), ("NAN", .nan), ("inf", .infinity), ("Inf", .infinity), ("INF", .infinity),
        ("infinity", .infinity), ("Infinity", .infinity), ("INFINITY", .infinity),
    ]

    /// The value as messages name it: `NaN`, `inf` or `-inf`.
    public static func name(_ value: Double) -> String {
        value.isNaN ? "NaN" : (value < 0 ? "-inf" : "inf")
    }
}
