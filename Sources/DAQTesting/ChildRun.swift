import DAQCore
import Foundation
import Synchronization

/// What a program a test ran to its end wrote, and how it ended.
public struct ChildOutput: Sendable {
    /// Its exit status, or the signal that ended it, as `terminationStatus` has them.
    public var status: Int32
    /// Everything it wrote to standard output.
    public var stdout: Data
    /// Everything it wrote to standard error.
    public var stderr: Data

    /// Standard output as UTF-8 text.
    public var output: String { String(decoding: stdout, as: UTF8.self) }
    /// Standard error as UTF-8 text.
    public var errors: String { String(decoding: stderr, as: UTF8.self) }
}

/// A program run by ``Foundation/Process/runToEnd(input:timeout:)`` that did not end in time:
/// it was killed with its process group, and this says what it had written by then.
public struct ChildTimeout: Error, CustomStringConvertible {
    /// The command line.
    public var command: String
    /// The time it was given, in seconds.
    public var seconds: Double
    /// What it wrote before it was killed.
    public var written: ChildOutput

    public var description: String {
        "\(command) did not end within \(seconds) s and was killed\n--- stdout:\n\(written.output.suffix(2000))\n--- stderr:\n\(written.errors.suffix(2000))"
    }
}

extension Process {
    /// Runs this process to its end and returns what it wrote: standard output and standard
    /// error are read at once, each on a thread of its own, and `input` is written on a third,
    /// so a child that fills one pipe while the test waits on another never blocks.
    ///
    /// Every wait is bounded: a child still running after `timeout` seconds is killed with its
    /// process group (Foundation starts each child as a group leader, so what it started goes
    /// too) and ``ChildTimeout`` is thrown with what it wrote; a test fails rather than hangs.
    /// - Parameters:
    ///   - input: Written to its standard input, which is then closed; `nil` leaves standard
    ///     input as set (inherited unless set).
    ///   - timeout: Seconds it may run.
    /// - Throws: What `run()` throws, or ``ChildTimeout``.
    public func runToEnd(input: Data? = nil, timeout: Double = 300) throws -> ChildOutput {
        let out = Pipe()
        let err = Pipe()
        let stdin = input.map { _ in Pipe() }
        standardOutput = out
        standardError = err
        if let stdin { standardInput = stdin }
        // `run()` closes the parent's copies of the child's ends: the readers see end of file
        // when the child, and whatever it started, have closed theirs.
        try runUnblocked()
        let stdout = PipeDrain(out.fileHandleForReading)
        let stderr = PipeDrain(err.fileHandleForReading)
        if let stdin, let input {
            let writer = stdin.fileHandleForWriting
            // A child that exits without reading it all makes this write fail: that is its answer.
            let feeder = Thread {
                try? writer.writeWithoutSIGPIPE(input)
                try? writer.close()
            }
            SignalMask.startingThread { feeder.start() }
        }
        let status = reapExitStatus(within: timeout)
        // Its output ends when every process holding the pipes has: bounded for a grandchild
        // that left the group and kept them open.
        let written = ChildOutput(
            status: status ?? SIGKILL, stdout: stdout.wait(seconds: 30), stderr: stderr.wait(seconds: 30))
        guard status != nil else {
            let command = ([executableURL?.path ?? "?"] + (arguments ?? [])).joined(separator: " ")
            throw ChildTimeout(command: command, seconds: timeout, written: written)
        }
        return written
    }

    /// Runs `executable` (a path, or a name looked up on `PATH` through `/usr/bin/env`) with
    /// `arguments` to its end, as ``runToEnd(input:timeout:)`` does.
    /// - Parameters:
    ///   - directory: Its working directory; the test's when `nil`.
    ///   - environment: Variables set on top of the test's environment.
    /// - Throws: What `run()` throws, or ``ChildTimeout``.
    public static func runToEnd(
        _ executable: String, _ arguments: [String] = [], input: Data? = nil, directory: String? = nil,
        environment: [String: String] = [:], timeout: Double = 300
    ) throws -> ChildOutput {
        let p = Process()
        if executable.hasPrefix("/") {
            p.executableURL = URL(fileURLWithPath: executable)
            p.arguments = arguments
        } else {
            p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            p.arguments = [executable] + arguments
        }
        if let directory { p.currentDirectoryURL = URL(fileURLWithPath: directory) }
        if !environment.isEmpty {
            p.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        return try p.runToEnd(input: input, timeout: timeout)
    }
}

/// Reads one pipe to its end on a thread of its own.
///
/// # Thread safety
/// The bytes sit behind a `Mutex`; the reader thread appends, ``wait(seconds:)`` takes them.
final class PipeDrain: Sendable {
    private let bytes = Mutex(Data())
    private let ended = DispatchSemaphore(value: 0)

    init(_ handle: FileHandle) {
        // The thread holds this drain until the pipe ends; `wait(seconds:)` needs no more.
        let thread = Thread { [self] in
            while case let chunk = handle.availableData, !chunk.isEmpty {
                bytes.withLock { $0.append(chunk) }
            }
            ended.signal()
        }
        SignalMask.startingThread { thread.start() }
    }

    /// The bytes read once the pipe has ended, or after `seconds` those read so far.
    func wait(seconds: Double) -> Data {
        _ = ended.wait(timeout: .now() + seconds)
        return bytes.withLock { $0 }
    }
}
