import DAQCore
import Foundation
import Synchronization

/// A program a test starts and talks to — a reference server, a broker — read line by line
/// from its standard output and stopped when the test is done.
///
/// Waiting is for what the program prints (`serving … on http://127.0.0.1:PORT`), never for a
/// fixed time; every wait has a deadline after which it fails with what was printed so far.
/// When the last reference to it goes (the test ended, or threw before its `stop`), the program
/// is stopped and reaped with its process group: none outlives `swift test`.
///
/// ```swift
/// let server = try ServiceProcess.start(ServiceProcess.builtExecutable("daq"), ["resolver", "serve", "--port", "0", …])
/// let line = try server.waitForLine { $0.contains("serving") }
/// ```
///
/// # Thread safety
/// What it printed sits in a ``ServiceOutput`` behind an `NSCondition`; reader threads append
/// to it, any thread may wait. The reader threads hold only that, never this object, so its
/// `deinit` comes when the test lets go of it.
public final class ServiceProcess: @unchecked Sendable {
    /// The running process.
    public let process: Process
    private let printed = ServiceOutput()
    /// How it ended, once reaped here: Foundation is not told, so this is asked first.
    private let reapedStatus = Mutex<Int32?>(nil)

    private init(process: Process) {
        self.process = process
    }

    deinit {
        stop(timeout: 10)
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
        let printed = service.printed
        let reader = Thread { printed.readLines(out.fileHandleForReading) }
        SignalMask.startingThread { reader.start() }
        let errorReader = Thread { printed.readErrors(err.fileHandleForReading) }
        SignalMask.startingThread { errorReader.start() }
        return service
    }

    private var name: String { process.executableURL?.lastPathComponent ?? "process" }

    /// Waits until standard error holds `text`: what a program reports on stderr (a reload it
    /// refused) is there before it goes on.
    /// - Throws: ``ServiceProcessError`` when the program ends or `timeout` passes first.
    public func waitForError(containing text: String, timeout: Double = 30) throws {
        try printed.waitForError(containing: text, timeout: timeout, name: name)
    }

    /// Waits for the next line (after those already waited for) that satisfies `match`.
    /// - Throws: ``ServiceProcessError`` when the program ends or `timeout` passes first.
    @discardableResult
    public func waitForLine(timeout: Double = 30, _ match: (String) -> Bool) throws -> String {
        try printed.waitForLine(timeout: timeout, name: name, match)
    }

    /// What the program wrote to standard error so far.
    public var errorOutput: String { printed.errorOutput }

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
        try printed.waitForEnd(timeout: timeout, name: name)
        // Its outputs closed, so it has ended or is about to: bounded all the same.
        return reap(within: timeout)
    }

    /// Stops the program with SIGTERM and waits for it to exit; one that has not after
    /// `timeout` seconds is killed (SIGKILL) with its process group, so a program that missed
    /// the signal fails the test that waits for it rather than hanging it.
    public func stop(timeout: Double = 60) {
        guard reapedStatus.withLock({ $0 }) == nil else { return }
        if process.isRunning { send(SIGTERM) }
        _ = reap(within: timeout)
    }

    /// Reaps the process once (``Foundation/Process/reapExitStatus(within:)``) and remembers how
    /// it ended; one still running after `timeout` is killed with its process group, and it
    /// ended by SIGKILL.
    private func reap(within timeout: Double) -> Int32 {
        reapedStatus.withLock { known in
            if let known { return known }
            let code = process.reapExitStatus(within: timeout) ?? SIGKILL
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
