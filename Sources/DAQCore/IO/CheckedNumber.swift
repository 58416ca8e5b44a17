/// A number from outside — a file, a peer, the command line — that does not fit where it must go.
///
/// Swift traps on a conversion or an arithmetic result that does not fit (`Int(1e300)`,
/// `Int64(UInt64.max)`, `Int.max + 1`), and a trap ends the whole run. Input is therefore
/// converted with the throwing `init(checked:_:in:)`, `checkedAdding(_:_:)` and
/// `checkedMultiplied(by:_:)` below, which say what the number was and what was expected, so the
/// reader can name its file.
public struct InputRangeError: Error, CustomStringConvertible, Sendable {
    /// What the number is, as a message names it: `the zip64 member count`, `Sample Rate`.
    public var what: String
    /// The number as it was read.
    public var value: String
    /// What was expected: `from 0 to 9223372036854775807`, `a finite number`.
    public var expected: String

    /// Describes one number out of range.
    public init(what: String, value: String, expected: String) {
        self.what = what
        self.value = value
        self.expected = expected
    }

    public var description: String { "\(what) is \(value); expected \(expected)" }
}

extension FixedWidthInteger {
    /// `value` as this type when it fits (and lies in `range`, when given).
    /// - Parameters:
    ///   - value: the number read.
    ///   - what: what it is, for the message.
    ///   - range: the values allowed; the whole type when `nil`.
    /// - Throws: ``InputRangeError`` when it does not fit.
    public init(
        checked value: some BinaryInteger, _ what: @autoclosure () -> String, in range: ClosedRange<Self>? = nil
    ) throws(InputRangeError) {
        let allowed = range ?? (Self.min...Self.max)
        guard let converted = Self(exactly: value), allowed.contains(converted) else {
            throw InputRangeError(what: what(), value: "\(value)", expected: Self.describe(allowed))
        }
        self = converted
    }

    /// `value` rounded by `rule` as this type when it is finite and fits (and lies in `range`).
    /// - Throws: ``InputRangeError`` for NaN, ±infinity, or a value out of range.
    public init(
        checked value: Double, _ what: @autoclosure () -> String,
        rounding rule: FloatingPointRoundingRule = .toNearestOrAwayFromZero,
        in range: ClosedRange<Self>? = nil
    ) throws(InputRangeError) {
        let allowed = range ?? (Self.min...Self.max)
        // `Self(exactly:)` of a rounded Double is nil exactly when it does not fit: no trap.
        guard value.isFinite, let converted = Self(exactly: value.rounded(rule)), allowed.contains(converted) else {
            throw InputRangeError(what: what(), value: "\(value)", expected: Self.describe(allowed))
        }
        self = converted
    }

    /// `self + other`, or throws when the sum does not fit.
    public func checkedAdding(_ other: Self, _ what: @autoclosure () -> String) throws(InputRangeError) -> Self {
        let (sum, overflow) = addingReportingOverflow(other)
        guard !overflow else {
            throw InputRangeError(
                what: what(), value: "\(self) + \(other)", expected: Self.describe(Self.min...Self.max))
        }
        return sum
    }

    /// `self * other`, or throws when the product does not fit.
    public func checkedMultiplied(by other: Self, _ what: @autoclosure () -> String) throws(InputRangeError) -> Self {
        let (product, overflow) = multipliedReportingOverflow(by: other)
        guard !overflow else {
            throw InputRangeError(
                what: what(), value: "\(self) × \(other)", expected: Self.describe(Self.min...Self.max))
        }
        return product
    }

    private static func describe(_ range: ClosedRange<Self>) -> String {
        range.lowerBound == range.upperBound ? "\(range.lowerBound)" : "from \(range.lowerBound) to \(range.upperBound)"
    }
}
