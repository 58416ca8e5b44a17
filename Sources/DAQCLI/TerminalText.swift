import Foundation

/// Text laid out for the terminal it is printed on.
enum TerminalText {
    /// Columns of standard output's terminal; `COLUMNS` when set; else 80 (a pipe, a file).
    static var width: Int {
        if let text = ProcessInfo.processInfo.environment["COLUMNS"], let n = Int(text), n >= 20 { return n }
        var size = winsize()
        if ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col >= 20 { return Int(size.ws_col) }
        return 80
    }

    /// `text` broken at spaces into lines of at most `width` characters, the first after
    /// `indent` spaces and the rest after `hanging` (`indent` when not given); a word longer than
    /// a line stands alone on one.
    static func wrapped(_ text: String, width: Int, indent: Int, hanging: Int? = nil) -> [String] {
        var lines: [String] = []
        var line = String(repeating: " ", count: indent)
        var empty = true
        for word in text.split(separator: " ", omittingEmptySubsequences: true) {
            if !empty && line.count + 1 + word.count > max(width, 40) {
                lines.append(line)
                line = String(repeating: " ", count: hanging ?? indent)
                empty = true
            }
            line += (empty ? "" : " ") + word
            empty = false
        }
        if !empty { lines.append(line) }
        return lines
    }
}
