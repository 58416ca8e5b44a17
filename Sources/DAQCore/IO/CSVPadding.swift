#if canImport(Glibc)
    import Glibc
#endif

/// Copies the rows of a CSV file into another, each widened by empty cells: what merging the parts
/// of a ``GrowingCSVFile`` under its final header takes.
///
/// Rows end at a newline outside quotes, so a quoted cell holding a newline stays one cell. The
/// file is read in large chunks; memory stays constant whatever its length.
enum CSVPadding {
    /// Appends the rows of `path` (its first row left out when `skippingHeader`) to `out`, with
    /// `adding` commas before each row's newline.
    /// - Throws: ``OutputFileError`` when `path` cannot be read or `out` written.
    static func copyRows(of path: String, skippingHeader: Bool, adding: Int, to out: OutputFile) throws {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw OutputFileError(path: path, reason: String(cString: strerror(errno))) }
        defer { _ = close(fd) }
        let commas = [UInt8](repeating: UInt8(ascii: ","), count: max(adding, 0))
        var chunk = [UInt8](repeating: 0, count: 1 << 20)
        var inQuotes = false
        var inHeader = skippingHeader
        var rowOpen = false
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw OutputFileError(path: path, reason: String(cString: strerror(errno)))
            }
            if n == 0 { break }
            try out.withBuffer { buffer in
                var from = 0
                for i in 0..<n {
                    let byte = chunk[i]
                    if byte == UInt8(ascii: "\"") {
                        inQuotes.toggle()
                    } else if byte == 0x0A && !inQuotes {
                        if inHeader {
                            inHeader = false
                        } else {
                            buffer.append(contentsOf: chunk[from..<i])
                            buffer.append(contentsOf: commas)
                            buffer.append(0x0A)
                        }
                        from = i + 1
                        rowOpen = false
                        continue
                    }
                    rowOpen = true
                }
                if !inHeader { buffer.append(contentsOf: chunk[from..<n]) }
            }
        }
        // A last row without its newline (a file cut short) is ended, so the next part's rows
        // do not run into it.
        if rowOpen && !inHeader { try out.write(commas + [0x0A]) }
    }
}
