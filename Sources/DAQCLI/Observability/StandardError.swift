import Foundation
import Synchronization

/// Standard error, shared by the live status line (or batch progress bar) and every other line
/// `daq` writes there.
///
/// The status line ends without a newline and is redrawn in place; a note written after it would
/// run into it. So every write goes through here: a line first clears the status, then the
/// status is drawn again below it. Lines are rare (notes, warnings), so one lock is no cost.
enum StandardError {
    private static let shown = Mutex<String?>(nil)
    private static let clear = "\r\u{1B}[K"

    /// Writes `text` and a newline, keeping a shown status line below it.
    static func line(_ text: String) {
        shown.withLock { status in
            write((status == nil ? "" : clear) + text + "\n" + (status ?? ""))
        }
    }

    /// Draws `text` as the status line, in place of the one before.
    static func status(_ text: String) {
        shown.withLock { status in
            status = text
            write(clear + text)
        }
    }

    /// Clears the status line; later lines are written as they are.
    static func clearStatus() {
        shown.withLock { status in
            guard status != nil else { return }
            status = nil
            write(clear)
        }
    }

    private static func write(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }
}
