import DAQTesting
import Foundation
import Testing

/// A `daq` process the test talks to while it runs: its stdin is the test's pipe, and its
/// stdout and stderr are collected line by line as they come. It starts as from a shell, with no
/// signal blocked, so the signals a test sends reach it as a user's would.
///
/// One the test lets go of without ``finish(timeout:)`` (it threw, or an expectation ended it
/// early) is killed with its process group and reaped then: no `daq run` outlives `swift test`.
final class LiveProcess: @unchecked Sendable {
    // @unchecked: `process` and the pipes are set up in `init` and not changed after; what the
    // process printed sits in `printed`, behind its own lock.
    let process = Process()
    let input = Pipe()
    private let printed = LiveOutput()
    /// Kept for as long as the process is, so that unread it fills rather than breaks.
    private let outPipe = Pipe()
    private let errPipe = Pipe()

    /// `readsStdout: false` leaves standard output to fill its pipe, as a reader that stopped
    /// reading does.
    init(_ arguments: [String], environment: [String: String] = [:], readsStdout: Bool = true) throws {
        process.executableURL = DAQBinary.url
        process.arguments = arguments
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        process.currentDirectoryURL = DAQBinary.repository
        process.standardInput = input
        process.standardOutput = outPipe
        process.standardError = errPipe
        try process.runUnblocked()
        printed.collect(errPipe, isStderr: true)
        if readsStdout { printed.collect(outPipe, isStderr: false) } else { printed.skipStdout() }
    }

    deinit {
        guard printed.claimReaping() == nil else { return }
        try? input.fileHandleForWriting.close()
        process.killGroup(SIGKILL)
        printed.reaped(process.reapExitStatus(within: 30) ?? SIGKILL)
    }

    /// The first stderr line matching `match`, waiting at most `timeout` seconds for it.
    func line(timeout: Double = 30, _ match: (String) -> Bool) -> String? {
        printed.wait(timeout: timeout) { $0.errLines.first(where: match) }
    }

    /// Waits at most `timeout` seconds until stderr's bytes so far, as text, satisfy `match`
    /// (a status line, redrawn in place, has no newline to wait for).
    func rawStderr(timeout: Double = 30, _ match: (String) -> Bool) -> String? {
        printed.wait(timeout: timeout) {
            let text = String(decoding: $0.errBytes, as: UTF8.self)
            return match(text) ? text : nil
        }
    }

    var stderr: String { printed.read { $0.errLines.joined(separator: "\n") } }

    /// The stdout lines so far.
    var stdoutLines: [String] { printed.read { $0.outLines } }

    /// Writes `text` to daq's standard input; daq having gone already fails the test.
    func send(_ text: String) {
        do {
            try input.fileHandleForWriting.writeWithoutSIGPIPE(Data(text.utf8))
        } catch {
            Issue.record("daq's standard input: \(error); stderr:\n\(stderr)")
        }
    }

    /// Waits for the process to end (after closing its stdin) and for what it wrote to be read
    /// (its exit comes before its last output is: reading stdout at the exit missed lines under
    /// load), and returns its exit status. One still running after `timeout` seconds is killed
    /// with its process group, and the test fails, rather than hangs, with what it printed.
    func finish(timeout: Double = 300) -> Int32 {
        try? input.fileHandleForWriting.close()
        if let known = printed.claimReaping() { return known }
        guard let status = process.reapExitStatus(within: timeout) else {
            printed.reaped(-1)
            Issue.record("daq did not exit within \(timeout) s, and was killed; stderr:\n\(stderr)")
            return -1
        }
        printed.reaped(status)
        _ = printed.wait(timeout: 30) { $0.unread == 0 ? true : nil }
        return status
    }
}

/// What a ``LiveProcess`` printed, filled by one reader thread per pipe.
///
/// # Thread safety
/// Everything sits behind one `NSCondition`; the readers hold this object only, never the
/// ``LiveProcess``, so its `deinit` comes when the test lets go of it.
final class LiveOutput: @unchecked Sendable {
    private let condition = NSCondition()
    fileprivate var errLines: [String] = []
    fileprivate var outLines: [String] = []
    fileprivate var errBytes = Data()
    /// stdout and stderr not read to their end yet.
    fileprivate var unread = 2
    /// Where reaping the process stands: `finish` or `deinit` takes it on, once.
    private var reaping = Reaping.running

    private enum Reaping {
        case running
        case reaping
        case reaped(Int32)
    }

    /// Takes on reaping the process: `nil` when it falls to the caller, else how it ended
    /// (-1 while another caller is reaping it).
    fileprivate func claimReaping() -> Int32? {
        read { output in
            switch output.reaping {
            case .running:
                output.reaping = .reaping
                return nil
            case .reaping: return -1
            case .reaped(let status): return status
            }
        }
    }

    fileprivate func reaped(_ status: Int32) { read { $0.reaping = .reaped(status) } }

    fileprivate func skipStdout() { read { $0.unread -= 1 } }

    fileprivate func read<T>(_ body: (LiveOutput) -> T) -> T {
        condition.lock()
        defer { condition.unlock() }
        return body(self)
    }

    /// Waits at most `timeout` seconds for `found` to give an answer.
    fileprivate func wait<T>(timeout: Double, _ found: (LiveOutput) -> T?) -> T? {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let answer = found(self) { return answer }
            if !condition.wait(until: deadline) { return nil }
        }
    }

    private func update(_ change: (LiveOutput) -> Void) {
        condition.lock()
        change(self)
        condition.broadcast()
        condition.unlock()
    }

    fileprivate func collect(_ pipe: Pipe, isStderr: Bool) {
        let reader = Thread { [self] in
            var pending = Data()
            while case let chunk = pipe.fileHandleForReading.availableData, !chunk.isEmpty {
                if isStderr { update { $0.errBytes.append(chunk) } }
                pending.append(chunk)
                while let nl = pending.firstIndex(of: 10) {
                    let line = String(decoding: pending[pending.startIndex..<nl], as: UTF8.self)
                    pending.removeSubrange(pending.startIndex...nl)
                    update { isStderr ? $0.errLines.append(line) : $0.outLines.append(line) }
                }
            }
            update { $0.unread -= 1 }
        }
        // Started from a test's thread, which blocks every asynchronous signal: so does this one.
        reader.start()
    }
}
