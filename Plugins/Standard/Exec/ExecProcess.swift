import DAQCore
import Dispatch
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// One start of an `exec` component's program: spawned through `/usr/bin/env` (so `command[0]`
/// is found on PATH), fed on stdin, read line by line from stdout, its stderr passed to the log.
///
/// Each pipe has a thread of its own doing plain blocking reads and writes, so the stage's
/// queue never blocks: stdin is written on a private serial queue (a program that stops
/// reading fills its pipe, its batches stay unacknowledged, and the stage stops taking input —
/// backpressure through the pipe), and stdout is read into a bounded buffer that the stage
/// drains (a program writing faster than the pipeline takes blocks on its full pipe).
///
/// # Thread safety
/// Driven on the stage's queue; the I/O threads hand over through a `Mutex`-guarded buffer and
/// ``StageContext/perform(_:)``.
final class ExecProcess {
    /// Why the program is done.
    enum End {
        /// Exited with status 0 after closing its stdout.
        case finished
        /// Exited otherwise, was killed, or broke the protocol: the reason, for messages.
        case failed(String)
    }

    /// What the stdout thread hands over: messages, then how the output ended.
    private struct Received {
        var messages: [ExecProtocol.Message] = []
        var lineNumber = 0
        /// `nil` while output goes on; `""` at a clean end; else why it stopped.
        var end: String?
        var scheduled = false
    }

    /// Lines read ahead of the stage before the stdout thread waits.
    static let readAhead = 4096

    private let process = Process()
    private let input = Pipe(), output = Pipe(), errors = Pipe()
    private let context: StageContext
    private let settings: ExecSettings
    private let writeQueue: DispatchQueue
    private var inFD: Int32 = -1
    private let received = Mutex(Received())
    private let roomForMore = DispatchSemaphore(value: 0)
    private let waitingForRoom = Atomic<Bool>(false)
    private(set) var stderrTail: [String] = []
    private var outputEnded = false
    /// Set by the termination handler, read on the stage's queue.
    private let exitBox = ExitStatus()
    /// Signalled when output arrives or the program exits, for ``drainUntilExit(timeout:)``.
    private let activity = DispatchSemaphore(value: 0)
    private var ended = false
    /// When daq last wrote to the program or it wrote a line, on the monotonic clock.
    private(set) var lastActivity = ExecProcess.monotonic()
    /// Called with every message, on the stage's queue.
    var onMessage: (ExecProtocol.Message) -> Void = { _ in }
    /// Called once, on the stage's queue, when the program is done.
    var onEnd: (End) -> Void = { _ in }
    /// Whether output is handed over as it comes (transforms, sinks) or only when asked (sources).
    var readsOnItsOwn = true

    init(settings: ExecSettings, context: StageContext, baseDirectory: String) {
        self.context = context
        self.settings = settings
        writeQueue = DispatchQueue(label: "daq.exec.\(context.name).stdin")
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = settings.command
        process.environment = ProcessInfo.processInfo.environment.merging(settings.env) { $1 }
        if !settings.cwd.isEmpty { process.currentDirectoryURL = URL(fileURLWithPath: settings.cwd) }
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
    }

    /// Starts the program and writes `hello`.
    /// - Throws: when it cannot be started.
    func start(hello: [UInt8]) throws {
        // A program that exits while daq writes to it must be an error to handle, not a signal
        // that kills daq.
        signal(SIGPIPE, SIG_IGN)
        let context = self.context
        let me = QueueConfined(self)
        let exitBox = self.exitBox
        let activity = self.activity
        process.terminationHandler = { p in
            exitBox.value.withLock { $0 = (p.terminationReason, p.terminationStatus) }
            activity.signal()
            context.perform { me.value?.exited() }
        }
        try process.run()
        // The stdin descriptor is daq's alone from here: closing it is the program's end of input.
        inFD = dup(input.fileHandleForWriting.fileDescriptor)
        try? input.fileHandleForWriting.close()
        let pipes = PipesBox(output: output, errors: errors)
        let name = "\(settings.command[0]) stdout"
        let maxLine = settings.maxLine
        Thread {
            // Made on the thread that alone reads with it.
            let reader = LineReader(descriptor: pipes.output.fileHandleForReading.fileDescriptor, name: name)
            reader.maxLineLength = maxLine
            me.value?.readOutput(reader, pipes)
        }.start()
        Thread { me.value?.readErrors(pipes.errors.fileHandleForReading.fileDescriptor) }.start()
        write(hello)
    }

    /// The program's process id.
    var pid: Int32 { process.processIdentifier }

    /// Queues `bytes` for the program's stdin.
    func write(_ bytes: [UInt8]) {
        guard !ended else { return }
        lastActivity = Self.monotonic()
        let fd = inFD
        let context = self.context
        let me = QueueConfined(self)
        writeQueue.async {
            var offset = 0
            while offset < bytes.count {
                let n = bytes[offset...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
                if n < 0 && errno == EINTR { continue }
                if n <= 0 {
                    // The program closed its input or exited: how it ended (its exit, batches
                    // it left unacknowledged) is the error to report, if any.
                    if errno == EPIPE { return }
                    let reason = String(cString: strerror(errno))
                    context.perform { me.value?.fail("stopped reading its input (\(reason))") }
                    return
                }
                offset += n
            }
        }
    }

    /// Closes the program's stdin: it has everything, and should finish and exit.
    func closeInput() {
        let fd = inFD
        guard fd >= 0 else { return }
        inFD = -1
        writeQueue.async { _ = Glibc.close(fd) }
    }

    // MARK: stdout, on its own thread

    private func readOutput(_ reader: LineReader, _ pipes: PipesBox) {
        var end: String?
        while end == nil {
            var message: ExecProtocol.Message?
            var bad: String?
            do {
                switch try reader.nextLine({ line in
                    do { message = try ExecProtocol.decode(line) } catch { bad = "\(error)" }
                }) {
                case .end, .wouldBlock:
                    end = reader.lastLineTerminated ? "" : "its last line has no newline"
                case .line:
                    if let bad { end = "stdout line \(reader.lineNumber): \(bad)" }
                }
            } catch {
                end = "\(error)"
            }
            hand(message, end: end, line: reader.lineNumber)
        }
        _ = pipes
    }

    /// Passes a message (or the end) to the stage, waiting while it is far behind.
    private func hand(_ message: ExecProtocol.Message?, end: String?, line: Int) {
        let (schedule, full) = received.withLock { r -> (Bool, Bool) in
            if let message { r.messages.append(message) }
            r.lineNumber = line
            if let end { r.end = end }
            let full = r.messages.count >= Self.readAhead && r.end == nil
            if full { waitingForRoom.store(true, ordering: .releasing) }
            guard !r.scheduled else { return (false, full) }
            r.scheduled = true
            return (true, full)
        }
        if schedule {
            let me = QueueConfined(self)
            let readsOnItsOwn = self.readsOnItsOwn
            context.perform {
                guard let p = me.value else { return }
                if readsOnItsOwn { p.read(limit: .max) } else { p.context.wake() }
            }
        }
        activity.signal()
        if full { roomForMore.wait() }
    }

    /// Hands up to `limit` messages to ``onMessage`` now; returns whether the limit was reached
    /// with more waiting.
    @discardableResult
    func read(limit: Int) -> Bool {
        guard !ended else { return false }
        let (batch, end, more) = received.withLock { r -> ([ExecProtocol.Message], String?, Bool) in
            let n = min(limit, r.messages.count)
            let taken = Array(r.messages.prefix(n))
            r.messages.removeFirst(n)
            let more = !r.messages.isEmpty
            if !more { r.scheduled = false }
            return (taken, r.messages.isEmpty ? r.end : nil, more)
        }
        if waitingForRoom.load(ordering: .acquiring), received.withLock({ $0.messages.count < Self.readAhead / 2 }) {
            waitingForRoom.store(false, ordering: .releasing)
            roomForMore.signal()
        }
        if !batch.isEmpty { lastActivity = Self.monotonic() }
        for m in batch {
            onMessage(m)
            if ended { return false }
        }
        if let end {
            outputEnded = true
            if end.isEmpty { finishIfDone() } else { fail(end) }
        }
        return more
    }

    /// stderr, on its own thread: each line goes to the log.
    private func readErrors(_ fd: Int32) {
        var buffer = [UInt8](repeating: 0, count: 4096)
        var line: [UInt8] = []
        let me = QueueConfined(self)
        while true {
            let n = Glibc.read(fd, &buffer, buffer.count)
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            for b in buffer[0..<n] {
                if b == UInt8(ascii: "\n") {
                    let text = String(decoding: line, as: UTF8.self)
                    context.perform { me.value?.logError(text) }
                    line.removeAll(keepingCapacity: true)
                } else if line.count < 2000 {
                    line.append(b)
                }
            }
        }
    }

    private func logError(_ line: String) {
        stderrTail.append(line)
        if stderrTail.count > 10 { stderrTail.removeFirst() }
        context.notice("stderr: \(line)")
    }

    private func exited() {
        // What it wrote before exiting is still in the pipe.
        if readsOnItsOwn { read(limit: .max) }
        finishIfDone()
    }

    private func finishIfDone() {
        guard !ended, outputEnded, let (reason, status) = exitBox.value.withLock({ $0 }) else { return }
        if reason == .exit && status == 0 { return end(.finished) }
        end(.failed(reason == .exit ? "exited with status \(status)" : "was killed by signal \(status)"))
    }

    /// Closes the program's input and handles what it writes until it exits, on the calling
    /// (stage) queue, for at most `timeout` seconds: for a sink whose last batch (the run's
    /// final step marker) comes after its input has ended.
    func drainUntilExit(timeout: Double) {
        closeInput()
        let deadline = DispatchTime.now() + timeout
        while !ended {
            read(limit: .max)
            if outputEnded { finishIfDone() }
            if ended || activity.wait(timeout: deadline) == .timedOut { break }
        }
        if !ended { fail("did not exit within \(timeout) s of the end of its input") }
    }

    /// Ends this start of the program: kills it if it still runs and reports `reason`.
    func fail(_ reason: String) {
        guard !ended else { return }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        end(.failed(reason))
    }

    private func end(_ how: End) {
        guard !ended else { return }
        ended = true
        closeInput()
        onEnd(how)
    }

    /// The reason with the program's last stderr lines, for an error message.
    func describe(_ reason: String) -> String {
        let tail = stderrTail.isEmpty ? "" : "; its stderr ended with:\n  " + stderrTail.joined(separator: "\n  ")
        return "program \(process.arguments?.first ?? "?") (pid \(pid)) \(reason)\(tail)"
    }

    static func monotonic() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }
}

/// The pipes the I/O threads read, kept alive while they do. `@unchecked Sendable`: each pipe
/// is read by one thread only.
struct PipesBox: @unchecked Sendable {
    let output: Pipe
    let errors: Pipe
}

/// How the program ended, set by its termination handler on Foundation's thread.
final class ExitStatus: Sendable {
    let value = Mutex<(reason: Process.TerminationReason, status: Int32)?>(nil)
}
