import DAQCore
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// One start of an `exec` component's program: `command[0]` executed directly (``ExecLaunch``),
/// fed on stdin, read line by line from stdout, its stderr passed to the log. It leads a process
/// group of its own, so whatever it starts is stopped with it (``terminate(grace:done:)``).
///
/// All three pipes are non-blocking and watched through the stage's context
/// (``StageContext/watch(fileDescriptor:for:closesDescriptor:_:)``), so no thread of its own
/// and no wait: stdin is written as far as the pipe takes it and the rest when it has room (a
/// program that stops reading leaves its batches unacknowledged, and the stage stops taking
/// input — backpressure through the pipe); stdout is read into a bounded buffer that the stage
/// drains, and is not watched while that is full (a program writing faster than the pipeline
/// takes blocks on its full pipe).
///
/// # Thread safety
/// Driven on the stage's queue, where the watches call it. The message buffer sits behind a
/// `Mutex` because a harness may call ``read(limit:)`` from its own thread; so does stdin, which
/// ``write(_:)`` writes from the caller's thread and its watch from the stage's queue.
final class ExecProcess {
    /// Why the program is done.
    enum End {
        /// Exited with status 0 after closing its stdout.
        case finished
        /// Exited otherwise, was killed, or broke the protocol: the reason, for messages.
        case failed(String)
    }

    /// What stdout gave that the stage has not taken: messages, then how the output ended.
    struct Received {
        var messages: [ExecProtocol.Message] = []
        /// `nil` while output goes on; `""` at a clean end; else why it stopped.
        var end: String?
        /// Whether stdout is left unwatched until the stage has taken enough.
        var waitingForRoom = false
    }

    /// Lines read ahead of the stage before stdout is left unwatched.
    static let readAhead = 4096

    private let process = Process()
    private let input = Pipe(), output = Pipe(), errors = Pipe()
    let context: StageContext
    private let settings: ExecSettings
    /// The pipes' ends on daq's side, non-blocking; each watch watches a duplicate it closes.
    private var outFD: Int32 = -1, errFD: Int32 = -1
    /// stdin: written from `write` (the stage's queue, or a harness's thread) and from its watch.
    private let stdin = Mutex(Stdin())
    private var outWatch: StageTask?, errWatch: StageTask?
    private var reader: LineReader?
    private var errorLine: [UInt8] = []
    private let received = Mutex(Received())
    private(set) var stderrTail: [String] = []
    private var outputEnded = false
    /// Set by the termination handler, read on the stage's queue.
    private let exitBox = ExitStatus()
    private var ended = false
    /// When daq last wrote to the program or it wrote a line, on the monotonic clock.
    private(set) var lastActivity = ExecProcess.monotonic()
    /// Called with every message, on the stage's queue.
    var onMessage: (ExecProtocol.Message) -> Void = { _ in }
    /// Called once, on the stage's queue, when the program is done.
    var onEnd: (End) -> Void = { _ in }
    /// While a stop waits for the program's process group to go: what to call once it has.
    private var terminating: (() -> Void)?
    /// Whether output is handed over as it comes (transforms, sinks) or only when asked (sources).
    var readsOnItsOwn = true

    init(settings: ExecSettings, context: StageContext, baseDirectory: String) {
        self.context = context
        self.settings = settings
        if !settings.cwd.isEmpty { process.currentDirectoryURL = URL(fileURLWithPath: settings.cwd) }
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
    }

    deinit {
        for fd in [stdin.withLock(\.fd), outFD, errFD] where fd >= 0 { _ = close(fd) }
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
        process.terminationHandler = { p in
            exitBox.value.withLock { $0 = (p.terminationReason, p.terminationStatus) }
            context.perform { me.value?.exited() }
        }
        let launch = try ExecLaunch(
            settings: settings, inherited: ProcessInfo.processInfo.environment, secrets: SecretVariables.all)
        process.executableURL = URL(fileURLWithPath: launch.executable)
        process.arguments = launch.arguments
        process.environment = launch.environment
        try process.run()
        // daq's ends are its own from here: closing stdin is the program's end of input.
        let inFD = Self.takeOver(input.fileHandleForWriting)
        stdin.withLock { $0.fd = inFD }
        outFD = Self.takeOver(output.fileHandleForReading)
        errFD = Self.takeOver(errors.fileHandleForReading)
        let reader = LineReader(descriptor: outFD, name: "\(settings.command[0]) stdout")
        reader.maxLineLength = settings.maxLine
        self.reader = reader
        watchOutput()
        errWatch = context.watch(fileDescriptor: dup(errFD), for: .read, closesDescriptor: true) {
            me.value?.readErrors()
        }
        write(hello)
    }

    /// A non-blocking duplicate of `handle`'s descriptor, the handle closed.
    private static func takeOver(_ handle: FileHandle) -> Int32 {
        let fd = dup(handle.fileDescriptor)
        try? handle.close()
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        return fd
    }

    /// The program's process id.
    var pid: Int32 { process.processIdentifier }

    // MARK: stdin

    /// Writes `bytes` to the program's stdin as far as the pipe takes them now; the rest goes
    /// when it has room.
    func write(_ bytes: [UInt8]) {
        guard !ended else { return }
        lastActivity = Self.monotonic()
        let open = stdin.withLock { s in
            guard s.fd >= 0, !s.pending.closing else { return false }
            s.pending.append(bytes)
            return true
        }
        if open { flushInput() }
    }

    /// Closes the program's stdin once what is queued is written: it has everything, and should
    /// finish and exit.
    func closeInput() {
        stdin.withLock { $0.pending.closing = true }
        flushInput()
    }

    /// Writes what is queued as far as the pipe takes it; watches for room when it is full.
    private func flushInput() {
        let me = QueueConfined(self)
        let context = self.context
        let failure = stdin.withLock { s -> String? in
            guard s.fd >= 0 else { return nil }
            switch s.pending.write(to: s.fd) {
            case .done:
                s.watch?.cancel()
                s.watch = nil
                if s.pending.closing {
                    _ = close(s.fd)
                    s.fd = -1
                }
            case .full:
                guard s.watch == nil else { return nil }
                s.watch = context.watch(fileDescriptor: dup(s.fd), for: .write, closesDescriptor: true) {
                    me.value?.flushInput()
                }
            case .closedByProgram:
                // It closed its input or exited: how it ended (its exit, batches it left
                // unacknowledged) is the error to report, if any.
                s.watch?.cancel()
                s.watch = nil
            case .failed(let reason):
                return reason
            }
            return nil
        }
        if let failure { fail("stopped reading its input (\(failure))") }
    }

    // MARK: stdout

    private func watchOutput() {
        let me = QueueConfined(self)
        outWatch = context.watch(fileDescriptor: dup(outFD), for: .read, closesDescriptor: true) {
            me.value?.readOutput()
        }
    }

    /// Reads the lines stdout has now, up to the read-ahead, and hands them on.
    private func readOutput() {
        guard let reader else { return }
        var messages: [ExecProtocol.Message] = []
        var end: String?
        let room = Self.readAhead - received.withLock { $0.messages.count }
        reading: while messages.count < room {
            var message: ExecProtocol.Message?
            var bad: String?
            do {
                switch try reader.nextLine({ line in
                    do { message = try ExecProtocol.decode(line) } catch { bad = "\(error)" }
                }) {
                case .wouldBlock:
                    break reading
                case .end:
                    end = reader.lastLineTerminated ? "" : "its last line has no newline"
                case .line:
                    if let bad { end = "stdout line \(reader.lineNumber): \(bad)" }
                }
            } catch {
                end = "\(error)"
            }
            if let message { messages.append(message) }
            if end != nil { break }
        }
        let full = end == nil && messages.count >= room
        received.withLock { r in
            r.messages += messages
            if let end { r.end = end }
            if full { r.waitingForRoom = true }
        }
        if end != nil || full {
            // Ended, or the stage is far behind: stdout waits in its pipe until ``read(limit:)``
            // has taken half of what is buffered.
            outWatch?.cancel()
            outWatch = nil
        }
        if end != nil { self.reader = nil }
        guard !messages.isEmpty || end != nil else { return }
        if readsOnItsOwn { read(limit: .max) } else { context.wake() }
    }

    /// Hands up to `limit` messages to ``onMessage`` now; returns whether the limit was reached
    /// with more waiting.
    @discardableResult
    func read(limit: Int) -> Bool {
        guard !ended else { return false }
        let (batch, end, more, resume) = received.withLock { r -> ([ExecProtocol.Message], String?, Bool, Bool) in
            let n = min(limit, r.messages.count)
            let taken = Array(r.messages.prefix(n))
            r.messages.removeFirst(n)
            let resume = r.waitingForRoom && r.messages.count < Self.readAhead / 2
            if resume { r.waitingForRoom = false }
            return (taken, r.messages.isEmpty ? r.end : nil, !r.messages.isEmpty, resume)
        }
        if resume {
            let me = QueueConfined(self)
            context.perform {
                guard let p = me.value, p.reader != nil, p.outWatch == nil, !p.ended else { return }
                p.watchOutput()
            }
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

    // MARK: stderr

    /// Passes each whole line stderr has now to the log.
    private func readErrors() {
        guard errFD >= 0 else { return }
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = Glibc.read(errFD, &buffer, buffer.count)
            if n < 0 && errno == EINTR { continue }
            if n <= 0 {
                if n == 0 || (errno != EAGAIN && errno != EWOULDBLOCK) {
                    errWatch?.cancel()
                    errWatch = nil
                }
                return
            }
            for b in buffer[0..<n] {
                if b == UInt8(ascii: "\n") {
                    logError(String(decoding: errorLine, as: UTF8.self))
                    errorLine.removeAll(keepingCapacity: true)
                } else if errorLine.count < 2000 {
                    errorLine.append(b)
                }
            }
        }
    }

    private func logError(_ line: String) {
        stderrTail.append(line)
        if stderrTail.count > 10 { stderrTail.removeFirst() }
        context.notice("stderr: \(line)")
    }

    // MARK: the end

    private func exited() {
        if let done = terminating {
            // Stopping: done once no child of its group is left either; else the grace timer ends them.
            if kill(-pid, 0) != 0 {
                terminating = nil
                done()
            }
            return
        }
        // What it wrote before exiting may still be in the pipe.
        if readsOnItsOwn { readOutput() }
        finishIfDone()
    }

    private func finishIfDone() {
        guard !ended, outputEnded, let (reason, status) = exitBox.value.withLock({ $0 }) else { return }
        if reason == .exit && status == 0 { return end(.finished) }
        end(.failed(reason == .exit ? "exited with status \(status)" : "was killed by signal \(status)"))
    }

    /// Closes the program's input and handles what it writes until it exits, on the stage's
    /// queue, for at most `timeout` seconds: for a sink whose last batch (the run's final step
    /// marker) comes after its input has ended.
    ///
    /// This one waits, in `poll(2)` on the program's pipes: the engine has no way yet to keep a
    /// sink's stage open after `finish` for work still owed (see ``DeferredWork``).
    func drainUntilExit(timeout: Double) {
        stdin.withLock { $0.pending.closing = true }
        let deadline = Self.monotonic() + timeout
        while !ended {
            flushInput()
            readErrors()
            readOutput()
            read(limit: .max)
            if outputEnded { finishIfDone() }
            let left = deadline - Self.monotonic()
            if ended || left <= 0 { break }
            var fds = [
                pollfd(fd: reader == nil ? -1 : outFD, events: Int16(POLLIN), revents: 0),
                pollfd(fd: errWatch == nil ? -1 : errFD, events: Int16(POLLIN), revents: 0),
                pollfd(fd: stdin.withLock { $0.pending.isEmpty ? -1 : $0.fd }, events: Int16(POLLOUT), revents: 0),
            ]
            // The exit itself is no descriptor: once the output has ended, look again every 10 ms.
            let slice = outputEnded ? min(left, 0.01) : left
            _ = poll(&fds, nfds_t(fds.count), Int32(max(1, slice * 1000)))
        }
        if !ended { fail("did not exit within \(timeout) s of the end of its input") }
    }

    /// Ends this start of the program: kills it, and what it started, and reports `reason`.
    func fail(_ reason: String) {
        guard !ended else { return }
        signalGroup(SIGKILL)
        end(.failed(reason))
    }

    /// Stops the program as a supervisor does, at the end of a run: SIGTERM to its process group
    /// (the program and every child it started), SIGKILL to what is left of the group after
    /// `grace` seconds; then `done`, on the stage's queue. Its output is no longer read.
    func terminate(grace: Double, done: @escaping () -> Void) {
        guard !ended, pid > 0 else { return done() }
        ended = true
        for watch in [stdin.withLock { $0.watch }, outWatch, errWatch] { watch?.cancel() }
        outWatch = nil
        errWatch = nil
        reader = nil
        guard kill(-pid, 0) == 0 || process.isRunning else { return done() }
        terminating = done
        signalGroup(SIGTERM)
        let me = QueueConfined(self)
        context.after(.seconds(grace)) {
            guard let p = me.value, let done = p.terminating else { return }
            p.signalGroup(SIGKILL)
            p.terminating = nil
            done()
        }
    }

    /// Sends `signal` to the program's process group, which it leads (Foundation spawns it with
    /// a group of its own), or to the program alone when there is none.
    private func signalGroup(_ signal: Int32) {
        guard pid > 0 else { return }
        if kill(-pid, signal) != 0 && process.isRunning { kill(pid, signal) }
    }

    private func end(_ how: End) {
        guard !ended else { return }
        // Its last words on stderr belong in the message.
        readErrors()
        ended = true
        for watch in [stdin.withLock { $0.watch }, outWatch, errWatch] { watch?.cancel() }
        outWatch = nil
        errWatch = nil
        reader = nil
        onEnd(how)
    }

    /// The reason with the program's last stderr lines, for an error message.
    func describe(_ reason: String) -> String {
        let tail = stderrTail.isEmpty ? "" : "; its stderr ended with:\n  " + stderrTail.joined(separator: "\n  ")
        return "program \(settings.command[0]) (pid \(pid)) \(reason)\(tail)"
    }

    private static let origin = ContinuousClock.now

    /// Seconds on the monotonic clock.
    static func monotonic() -> Double {
        // The origin first: made on first use, it must not come after the `now` it is taken from.
        let start = origin
        let (seconds, attoseconds) = (ContinuousClock.now - start).components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}

/// A program's stdin: daq's end of the pipe (-1 once closed), what waits to be written, and the
/// watch for room while the pipe is full.
private struct Stdin {
    var fd: Int32 = -1
    var pending = PendingInput()
    var watch: StageTask?
}

/// How the program ended, set by its termination handler on Foundation's thread.
final class ExitStatus: Sendable {
    let value = Mutex<(reason: Process.TerminationReason, status: Int32)?>(nil)
}
