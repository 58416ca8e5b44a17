import DAQCore
import Foundation
import Synchronization

/// A program a test starts and talks to — a reference server, a broker — read line by line
/// from its standard output and stopped when the test is done.
///
/// Waiting is for what the program prints (`serving … on http://127.0.0.1:PORT`), never for a
/// fixed time; every wait has a deadline after which it fails with what was printed so far.
///
/// ```swift
/// let server = try ServiceProcess.start(ServiceProcess.builtExecutable("daq"), ["resolver", "serve", "--port", "0", …])
/// let line = try server.waitForLine { $0.contains("serving") }
/// defer { server.stop() }
/// ```
///
/// # Thread safety
/// The lines sit behind an `NSCondition`; a reader thread appends them, any thread may wait.
public final class ServiceProcess: @unchecked Sendable {
    /// The running process.
    public let process: Process
    private let condition = NSCondition()
    private var lines: [String] = []
    private var consumed = 0
    /// Standard output and standard error read to their end (both under `condition`).
    private var ended = false
    private var errorsEnded = false
    private let errors = Mutex(Data())
    /// How it ended, once reaped here: Foundation is not told, so this is asked first.
    private let reapedStatus = Mutex<Int32?>(nil)

    private init(process: Process) {
        self.process = process
    }

    /// An executable SwiftPM built beside the running test bundle (`daq`).
    public static func builtExecutable(_ name: String) -> String {
        URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
            .appendingPathComponent(name).path
    }

    /// Starts `executable` with `arguments`; standard output is read line by line.
    /// - Throws: when it cannot be started.
    public static func start(
        _ executable: String, _ arguments: [String], environment: [String: String] = [:], directory: String? = nil
    ) throws -> ServiceProcess {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: executable)
        p.arguments = arguments
        p.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        if let directory { p.currentDirectoryURL = URL(fileURLWithPath: directory) }
        let out = Pipe()
        let err = Pipe()
        p.standardOutput = out
        p.standardError = err
        p.standardInput = FileHandle.nullDevice
        let service = ServiceProcess(process: p)
        try p.runUnblocked()
        let reader = Thread { service.read(out.fileHandleForReading) }
        SignalMask.startingThread { reader.start() }
        let errorReader = Thread {
            while case let data = err.fileHandleForReading.availableData, !data.isEmpty {
                service.errors.withLock { $0.append(data) }
                service.condition.lock()
                service.condition.broadcast()
                service.condition.unlock()
            }
            service.condition.lock()
            service.errorsEnded = true
            service.condition.broadcast()
            service.condition.unlock()
        }
        SignalMask.startingThread { errorReader.start() }
        return service
    }

    private func read(_ handle: FileHandle) {
        var pending = Data()
        while true {
            let chunk = handle.availableData
            if chunk.isEmpty { break }
            pending.append(chunk)
            while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: pending[pending.startIndex..<newline], as: UTF8.self)
                pending.removeSubrange(pending.startIndex...newline)
                condition.lock()
                lines.append(line)
                condition.broadcast()
                condition.unlock()
            }
        }
        condition.lock()
        ended = true
        condition.broadcast()
        condition.unlock()
    }

    /// Waits until standard error holds `text`: what a program reports on stderr (a reload it
    /// refused) is there before it goes on.
    /// - Throws: ``ServiceProcessError`` when the program ends or `timeout` passes first.
    public func waitForError(containing text: String, timeout: Double = 30) throws {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        defer { condition.unlock() }
        while !errorOutput.contains(text) {
            if ended || !condition.wait(until: deadline) {
                guard !errorOutput.contains(text) else { return }
                throw ServiceProcessError(
                    message:
                        "\(process.executableURL?.lastPathComponent ?? "process") \(ended ? "ended" : "printed no '\(text)' on stderr within \(timeout) s")",
                    output: lines.joined(separator: "\n"), errors: errorOutput)
            }
        }
    }

    /// Waits for the next line (after those already waited for) that satisfies `match`.
    /// - Throws: ``ServiceProcessError`` when the program ends or `timeout` passes first.
    @discardableResult
    public func waitForLine(timeout: Double = 30, _ match: (String) -> Bool) throws -> String {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        defer { condition.unlock() }
        while true {
            while consumed < lines.count {
                let line = lines[consumed]
                consumed += 1
                if match(line) { return line }
            }
            if ended || !condition.wait(until: deadline) {
                throw ServiceProcessError(
                    message:
                        "\(process.executableURL?.lastPathComponent ?? "process") \(ended ? "ended" : "printed nothing matching within \(timeout) s")",
                    output: lines.joined(separator: "\n"), errors: errorOutput)
            }
        }
    }

    /// What the program wrote to standard error so far.
    public var errorOutput: String { errors.withLock { String(decoding: $0, as: UTF8.self) } }

    /// Sends `signal` (SIGHUP to reload, SIGKILL to crash it).
    public func send(_ signal: Int32) {
        kill(process.processIdentifier, signal)
    }

    /// Waits until the program has ended and all it printed has been read: a program that
    /// exits right after writing an error has its last lines in ``errorOutput`` then, which
    /// waiting for the process alone does not promise.
    /// - Returns: Its exit status, or the signal that ended it, as `terminationStatus` has them.
    /// - Throws: ``ServiceProcessError`` when its outputs are still open after `timeout`.
    @discardableResult
    public func waitForExit(timeout: Double = 60) throws -> Int32 {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        while !(ended && errorsEnded) {
            guard condition.wait(until: deadline) else {
                condition.unlock()
                throw ServiceProcessError(
                    message:
                        "\(process.executableURL?.lastPathComponent ?? "process") did not end within \(timeout) s",
                    output: lines.joined(separator: "\n"), errors: errorOutput)
            }
        }
        condition.unlock()
        return reap()
    }

    /// Stops the program with SIGTERM and waits for it to exit; one that has not after
    /// `timeout` seconds is killed (SIGKILL), so a program that missed the signal fails the
    /// test that waits for it rather than hanging it.
    public func stop(timeout: Double = 60) {
        guard reapedStatus.withLock({ $0 }) == nil else { return }
        if process.isRunning { send(SIGTERM) }
        _ = reap(within: timeout)
    }

    /// Reaps the process once (``Foundation/Process/reapExitStatus()``) and remembers how it ended;
    /// with `timeout`, one still running then is killed, and it ended by SIGKILL.
    private func reap(within timeout: Double? = nil) -> Int32 {
        reapedStatus.withLock { known in
            if let known { return known }
            let code = timeout.map { process.reapExitStatus(within: $0) ?? SIGKILL } ?? process.reapExitStatus()
            known = code
            return code
        }
    }
}

/// A ``ServiceProcess`` did not print what a test waited for.
public struct ServiceProcessError: Error, CustomStringConvertible {
    public var message: String
    public var output: String
    public var errors: String
    public var description: String { "\(message)\n--- stdout:\n\(output)\n--- stderr:\n\(errors)" }

    public init(message: String, output: String, errors: String) {
        self.message = message
        self.output = output
        self.errors = errors
    }
}
