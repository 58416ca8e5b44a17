/// `logger.csv` files: rows end at a line break outside quotes (RFC 4180, as ``LogItemCSV``
/// writes them), so a row cut inside a quoted cell is never mistaken for a whole one.
extension LogRepair {
    /// The columns every logger CSV file begins with.
    static let csvHeader = "uptime,timestamp,stepPath,timestampDate"

    /// Keeps the header and every row that ends with its line break; a part file
    /// (`x.part2.csv`) of a run killed while its columns grew is one such file too.
    static func repairCSV(_ bytes: [UInt8]) throws(Failure) -> Result {
        guard bytes.starts(with: csvHeader.utf8) || csvHeader.utf8.starts(with: bytes) else {
            throw Failure(path: "", reason: "not a logger CSV log: its first row does not begin with \(csvHeader)")
        }
        var inQuotes = false
        var rows = -1  // the header is not an item
        var keptEnd = 0
        for i in bytes.indices {
            switch bytes[i] {
            case UInt8(ascii: "\""): inQuotes.toggle()  // `""` inside a cell toggles twice
            case 0x0A where !inQuotes:
                rows += 1
                keptEnd = i + 1
            default: break
            }
        }
        guard rows >= 0 else {
            throw Failure(path: "", reason: "not a logger CSV log: cut inside its header row, so no row can be kept")
        }
        guard keptEnd < bytes.count else {
            return Result(format: .csv, bytes: bytes, itemsKept: rows, bytesDropped: 0, changed: false)
        }
        return Result(
            format: .csv, bytes: Array(bytes[..<keptEnd]), itemsKept: rows, bytesDropped: bytes.count - keptEnd,
            changed: true)
    }
}
