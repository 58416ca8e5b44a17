import DAQCore
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Lines of `trigger` and `cancel` from a file, a FIFO or standard input, read when readable.
///
/// A FIFO is opened read-write so it never reports end of input while no writer has it open:
/// `echo trigger > ctl` may be run any number of times.
final class ControlInput {
    private let reader: LineReader
    private let fd: Int32
    private let owns: Bool
    private var watch: StageTask?
    let path: String

    init(path: String) throws {
        self.path = path
        if path == "-" {
            fd = STDIN_FILENO
            owns = false
        } else {
            var st = stat()
            let isFIFO = stat(path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFIFO
            fd = open(path, (isFIFO ? O_RDWR : O_RDONLY) | O_NONBLOCK | O_CLOEXEC)
            guard fd >= 0 else { throw DeviceError(path: path, reason: String(cString: strerror(errno))) }
            owns = true
        }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        reader = LineReader(descriptor: fd, name: path)
    }

    /// Wakes the source whenever lines may be waiting. The watch has a descriptor of its own,
    /// which it closes once it has let go of it, so ``close()`` may close this one at once.
    func activate(context: StageContext) {
        watch = context.watch(fileDescriptor: dup(fd), for: .read, closesDescriptor: true) { context.wake() }
    }

    /// The commands waiting now; unknown words are returned as errors to report.
    func take() throws -> (commands: [String], unknown: [String]) {
        var commands: [String] = []
        var unknown: [String] = []
        while true {
            var word = ""
            let result = try reader.nextLine { word = String(decoding: $0, as: UTF8.self) }
            guard result == .line else { break }
            let w = word.trimmingCharacters(in: .whitespaces).lowercased()
            if w.isEmpty { continue }
            if w == "trigger" || w == "cancel" {
                commands.append(w)
            } else {
                unknown.append("\(path):\(reader.lineNumber): '\(word)'")
            }
        }
        return (commands, unknown)
    }

    func close() {
        watch?.cancel()
        watch = nil
        if owns { _ = Glibc.close(fd) }
    }
}
