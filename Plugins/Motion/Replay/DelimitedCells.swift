import DAQCore

/// The cells of one line of a device's CSV export (no quoting), as byte ranges into the line:
/// split once per row into arrays that are reused, so a row allocates nothing.
struct DelimitedCells {
    private var starts: [Int] = []
    private var ends: [Int] = []
    let delimiter: UInt8

    init(delimiter: UInt8) { self.delimiter = delimiter }

    var count: Int { starts.count }

    /// Splits `line` at every delimiter.
    mutating func split(_ line: UnsafeBufferPointer<UInt8>) {
        starts.removeAll(keepingCapacity: true)
        ends.removeAll(keepingCapacity: true)
        var start = 0
        for i in 0..<line.count where line[i] == delimiter {
            starts.append(start)
            ends.append(i)
            start = i + 1
        }
        starts.append(start)
        ends.append(line.count)
    }

    /// The bytes of cell `i`.
    func cell(_ i: Int, _ line: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(rebasing: line[starts[i]..<ends[i]])
    }

    /// Cell `i` as a number, or `nil`.
    func number(_ i: Int, _ line: UnsafeBufferPointer<UInt8>) -> Double? {
        FastDouble.parse(cell(i, line))
    }

    /// Cell `i` as text, for messages (at most 40 characters).
    func text(_ i: Int, _ line: UnsafeBufferPointer<UInt8>) -> String {
        String(String(decoding: cell(i, line), as: UTF8.self).prefix(40))
    }

    /// The delimiter of a preamble line such as `Device Type,GENEActiv`: the first of `,` tab `;`.
    static func guess(_ line: String) -> UInt8 {
        for b in line.utf8 where b == UInt8(ascii: ",") || b == 0x09 || b == UInt8(ascii: ";") { return b }
        return UInt8(ascii: ",")
    }
}
