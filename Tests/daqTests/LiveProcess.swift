import DAQTesting
import Foundation
import Testing

/// A `daq` process the test talks to while it runs: its stdin is the test's pipe, and its
/// stdout and stderr are collected line by line as they come. It starts as from a shell, with no
/// signal blocked, so the signals a test sends reach it as a user's would.
final class LiveProcess: @unchecked Sendable {
    let process = Process()
    let input = Pipe()
    private let errPipe = Pipe()
    /// Kept for as long as the process is, so that unread it fills rather than breaks.
    private let outPipe = Pipe()
    private let condition = NSCondition()
    private var lines: [String] = []
    private var outLines: [String] = []
    private var errBytes = Data()
    /// stdout and stderr not read to their end yet.
    private var unread = 2

    /// `readsStdout: false` leaves standard output to fill its pipe, as a reader that stopped
    /// reading does.
    init(_ arguments: [String], environment: [String: String] = [:], readsStdout: Bool = true) throws {
        process.executableURL = DAQBinary.url
        process.arguments = arguments
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        process.currentDirectoryURL = DAQBinary.repository
        let out = outPipe
        let err = errPipe
        process.standardInput = input
        process.standardOutput = out
        process.standardError = err
        try process.runUnblocked()
        collect(err) { $0.lines.append($1) }
        if readsStdout {
            collect(out) { $0.outLines.append($1) }
        } else {
            unread -= 1
        }
    }

    private func collect(_ pipe: Pipe, _ add: @escaping @Sendable (LiveProcess, String) -> Void) {
        Thread { [self] in
            var pending = Data()
            while case let chunk = pipe.fileHandleForReading.availableData, !chunk.isEmpty {
                if pipe === errPipe {
                    condition.lock()
                    errBytes.append(chunk)
                    condition.broadcast()
                    condition.unlock()
                }
                pending.append(chunk)
                while let nl = pending.firstIndex(of: 10) {
                    let line = String(decoding: pending[pending.startIndex..<nl], as: UTF8.self)
                    pending.removeSubrange(pending.startIndex...nl)
                    condition.lock()
                    add(self, line)
                    condition.broadcast()
                    condition.unlock()
                }
            }
            condition.lock()
            unread -= 1
            condition.broadcast()
            condition.unlock()
        }.start()
    }

    /// The first stderr line matching `match`, waiting at most `timeout` seconds for it.
    func line(timeout: Double = 30, _ match: (String) -> Bool) -> String? {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let l = lines.first(where: match) { return l }
            if !condition.wait(until: deadline) { return nil }
        }
    }

    /// Waits at most `timeout` seconds until stderr's bytes so far, as text, satisfy `match`
    /// (a status line, redrawn in place, has no newline to wait for).
    func rawStderr(timeout: Double = 30, _ match: (String) -> Bool) -> String? {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        defer { condition.unlock() }
        while true {
            let text = String(decoding: errBytes, as: UTF8.self)
            if match(text) { return text }
            if !condition.wait(until: deadline) { return nil }
        }
    }

    var stderr: String {
        condition.lock()
        defer { condition.unlock() }
        return lines.joined(separator: "\n")
    }

    /// The stdout lines so far.
    var stdoutLines: [String] {
        condition.lock()
        defer { condition.unlock() }
        return outLines
    }

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
    /// load), and returns its exit status. One still running after `timeout` seconds is killed,
    /// and the test fails, rather than hangs, with what it printed.
    func finish(timeout: Double = 300) -> Int32 {
        try? input.fileHandleForWriting.close()
        guard let status = process.reapExitStatus(within: timeout) else {
            Issue.record("daq did not exit within \(timeout) s, and was killed; stderr:\n\(stderr)")
            return -1
        }
        let deadline = Date(timeIntervalSinceNow: 30)
        condition.lock()
        while unread > 0 && condition.wait(until: deadline) {}
        condition.unlock()
        return status
    }
}
