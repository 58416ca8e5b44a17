import DAQTesting
import Foundation
import Testing

/// The helpers that run programs for tests end, and take their children with them: both pipes
/// read at once, every wait bounded, a child the test lets go of killed and reaped.
@Suite(.timeLimit(.minutes(20)))
struct ChildRunTests {
    /// 200 KiB to stderr before a byte to stdout: a helper that read stdout to its end first
    /// would wait for ever on a child blocked writing into a full stderr pipe (64 KiB).
    @Test func aChildFillingStderrBeforeStdoutDoesNotBlock() throws {
        let r = try Process.runToEnd(
            "python3",
            ["-c", "import sys; sys.stderr.write('e' * 204800); sys.stderr.flush(); sys.stdout.write('o' * 204800)"],
            timeout: 60)
        #expect(r.status == 0, "\(r.errors.suffix(500))")
        #expect(r.stderr.count == 204_800 && r.stdout.count == 204_800)
        #expect(r.errors.allSatisfy { $0 == "e" } && r.output.allSatisfy { $0 == "o" })
    }

    /// A child that echoes its input as it reads it: fed while its output is read, 1 MiB each
    /// way, more than both pipes hold.
    @Test func inputIsFedWhileOutputIsRead() throws {
        let input = Data((0..<1_048_576).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        let r = try Process.runToEnd("cat", input: input, timeout: 60)
        #expect(r.status == 0 && r.stdout == input)
    }

    /// A child that does not end is killed when its time is up, with what it started: the
    /// error names the command and carries what it wrote.
    @Test func aChildThatDoesNotEndIsKilledWithItsGroup() throws {
        let started = Date()
        let error = try #require(throws: ChildTimeout.self) {
            try Process.runToEnd("sh", ["-c", "tail -f /dev/null & echo $!; echo waiting >&2; wait"], timeout: 2)
        }
        #expect(Date().timeIntervalSince(started) >= 2, "killed after its time, not before")
        #expect(error.written.status == SIGKILL && error.written.errors == "waiting\n")
        #expect(error.description.contains("sh -c tail -f /dev/null"), "\(error)")
        let grandchild = try #require(pid_t(error.written.output.trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect(Process.hasEnded(grandchild, within: 10), "the child's own child \(grandchild) outlived the timeout")
    }

    /// A service the test lets go of without stopping it, because it threw, is stopped and
    /// reaped as it goes: no program a test started outlives the test.
    @Test func aServiceLetGoOfWhenTheTestThrowsIsStoppedAndReaped() throws {
        var pid: pid_t = 0
        #expect(throws: CancellationError.self) {
            let service = try ServiceProcess.start("/bin/sh", ["-c", "echo ready; exec tail -f /dev/null"])
            try service.waitForLine { $0 == "ready" }
            pid = service.process.processIdentifier
            #expect(!Process.hasEnded(pid))
            throw CancellationError()
        }
        #expect(pid != 0 && Process.hasEnded(pid), "process \(pid) outlived its ServiceProcess")
    }
}
