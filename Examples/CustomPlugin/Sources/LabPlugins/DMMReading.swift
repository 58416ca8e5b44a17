/// One line of a bench multimeter's reading output, as Keithley 2000-series meters print it
/// with `FORM:ELEM READ,TST,RNUM`: `+1.00070000E+02OHM4W,+0001234.500SECS,+00051RDNG#`.
///
/// Each comma-separated element is a number followed by its unit. The reading's unit says
/// what was measured; `SECS` is the meter's own timer, `RDNG#` its reading counter. Other
/// meters that print `value UNIT` pairs the same way parse too.
public struct DMMReading: Sendable, Equatable {
    /// The measured value; `nil` when the meter reported an overflow (an open lead, over range).
    public var value: Double?
    /// The reading's unit as the meter printed it: `OHM4W`, `VDC`, …
    public var unit: String
    /// The meter's timer, in seconds, when the line carries a `SECS` element.
    public var seconds: Double?
    /// The meter's reading number, when the line carries an `RDNG#` element.
    public var number: Int?

    /// The value Keithley meters print for an overflow: `+9.9E37`.
    static let overflow = 9.9e37

    /// Parses one line.
    /// - Throws: ``DMMReadingError`` saying which element could not be read.
    public init(line: Substring) throws(DMMReadingError) {
        let elements = line.split(separator: ",", omittingEmptySubsequences: false)
        guard let first = elements.first, !first.isEmpty else { throw DMMReadingError("empty line") }
        var reading: (Double, String)?
        for element in elements {
            let (number, unit) = try Self.split(element)
            switch unit {
            case "SECS": seconds = number
            case "RDNG#":
                guard let n = Int(exactly: number) else {
                    throw DMMReadingError("reading number \(number) is not whole")
                }
                self.number = n
            default:
                guard reading == nil else { throw DMMReadingError("two readings on one line (\(quoted(element)))") }
                reading = (number, unit)
            }
        }
        guard let reading else { throw DMMReadingError("no reading, only \(elements.count) timer/counter elements") }
        // Meters print 9.9E37 for "no valid value"; anything that large is not a measurement.
        value = abs(reading.0) >= Self.overflow * 0.99 ? nil : reading.0
        unit = reading.1
    }

    /// Splits `+1.0E+02OHM4W` into the number and the unit after it.
    private static func split(_ element: Substring) throws(DMMReadingError) -> (Double, String) {
        // The unit starts at the first letter that cannot belong to a number ('E' can: 1E+02).
        var end = element.startIndex
        for i in element.indices {
            let c = element[i]
            if c.isNumber || c == "+" || c == "-" || c == "." {
                end = element.index(after: i)
                continue
            }
            if c == "E" || c == "e", let next = element[element.index(after: i)...].first,
                next.isNumber || next == "+" || next == "-"
            {
                end = element.index(after: i)
                continue
            }
            break
        }
        let text = element[..<end]
        let unit = element[end...]
        guard let number = Double(text), number.isFinite else {
            throw DMMReadingError("\(quoted(element)) does not start with a number")
        }
        guard !unit.isEmpty, unit.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "#" }) else {
            throw DMMReadingError("\(quoted(element)) has no unit after its number")
        }
        return (number, String(unit))
    }
}

/// `text` in single quotes, control characters escaped: line noise is mostly invisible bytes.
private func quoted(_ text: Substring) -> String {
    let visible = text.unicodeScalars.map { s in
        s.value < 0x20 || s.value == 0x7F ? "\\u{\(String(s.value, radix: 16))}" : String(s)
    }
    return "'" + visible.joined() + "'"
}

/// A line a multimeter printed that is not a reading.
public struct DMMReadingError: Error, Sendable, CustomStringConvertible {
    /// What is wrong with the line.
    public var description: String

    init(_ description: String) { self.description = description }
}
