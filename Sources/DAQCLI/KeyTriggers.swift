import DAQCore
import Dispatch
import Foundation

/// `daq run --trigger KEY`: a key pressed on the terminal sends `trigger` (and `--cancel-key`
/// sends `cancel`) to every stage that listens, as a scanner's trigger button would.
///
/// The terminal is put in non-canonical mode without echo so a single key press counts at once,
/// and restored when the run ends.
final class KeyTriggers {
    private let source: any DispatchSourceRead
    private var saved = termios()
    private let isTerminal: Bool

    /// A key name: one character, or `space`, `enter`, `tab`.
    static func byte(_ name: String) -> UInt8? {
        switch name.lowercased() {
        case "space": return 0x20
        case "enter", "return": return 0x0A
        case "tab": return 0x09
        default: return name.utf8.count == 1 ? name.utf8.first : nil
        }
    }

    init(run: PipelineRun, trigger: UInt8?, cancel: UInt8?) {
        isTerminal = isatty(STDIN_FILENO) == 1
        if isTerminal {
            tcgetattr(STDIN_FILENO, &saved)
            var raw = saved
            raw.c_lflag &= ~(tcflag_t(ICANON) | tcflag_t(ECHO))
            tcsetattr(STDIN_FILENO, TCSANOW, &raw)
        }
        _ = fcntl(STDIN_FILENO, F_SETFL, fcntl(STDIN_FILENO, F_GETFL) | O_NONBLOCK)
        source = DispatchSource.makeReadSource(fileDescriptor: STDIN_FILENO, queue: DispatchQueue(label: "daq.keys"))
        source.setEventHandler { [source] in
            var bytes = [UInt8](repeating: 0, count: 64)
            let n = read(STDIN_FILENO, &bytes, bytes.count)
            if n == 0 { source.cancel() }
            for b in bytes.prefix(max(n, 0)) {
                // Enter arrives as CR from a raw terminal and LF from a pipe.
                let key = b == 0x0D ? 0x0A : b
                if key == trigger { run.send(ControlCommand("trigger")) }
                if key == cancel { run.send(ControlCommand("cancel")) }
            }
        }
        source.activate()
    }

    /// Gives the terminal back as it was.
    func restore() {
        source.cancel()
        if isTerminal { tcsetattr(STDIN_FILENO, TCSANOW, &saved) }
        _ = fcntl(STDIN_FILENO, F_SETFL, fcntl(STDIN_FILENO, F_GETFL) & ~O_NONBLOCK)
    }
}
