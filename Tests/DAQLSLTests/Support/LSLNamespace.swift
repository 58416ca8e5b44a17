import DAQTesting
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A network namespace of a test's own, so no LSL packet leaves the machine: a holder process
/// (`unshare -n sh`, waiting on its standard input) owns it; its loopback is brought up with
/// multicast routed on it; every participant (pylsl, LabRecorderCLI, `daq`) runs in it through
/// `nsenter --net=/proc/PID/ns/net`, with `LSLAPICFG` naming a configuration that keeps LSL on
/// this machine (`KnownPeers = {127.0.0.1}`, `ResolveScope = machine`) and `LSL_LIB` pylsl's
/// liblsl.
///
/// Closing the holder's standard input ends it, and the namespace with it.
final class LSLNamespace: @unchecked Sendable {
    let directory: URL
    let environment: [String: String]
    private let holder: Process
    private let holderInput: Pipe
    let pid: Int32

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("daq-lsl-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let config = directory.appendingPathComponent("lsl_api.cfg")
        try "[lab]\nKnownPeers = {127.0.0.1}\n[multicast]\nResolveScope = machine\n".write(
            to: config, atomically: true, encoding: .utf8)
        environment = ["LSLAPICFG": config.path, "LSL_LIB": try LSLNamespace.pylslLibrary(), "PYTHONUNBUFFERED": "1"]

        holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/usr/bin/unshare")
        // `read` waits on standard input: the namespace lives until the test closes it.
        holder.arguments = ["-n", "sh", "-c", "echo ready; read _"]
        holderInput = Pipe()
        let output = Pipe()
        holder.standardInput = holderInput
        holder.standardOutput = output
        try holder.runUnblocked()
        pid = holder.processIdentifier
        // Only once it printed is the namespace the holder's: before, /proc/PID/ns/net is ours.
        guard Self.readLine(output.fileHandleForReading, within: 10) == "ready" else {
            throw LSLNamespaceError("unshare -n did not start (the tests need CAP_SYS_ADMIN, as root has)")
        }
        let mine = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/ns/net")
        let its = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/ns/net")
        guard mine != its else { throw LSLNamespaceError("the holder shares the test's network namespace") }
        let up = try Process.runToEnd(
            "/usr/bin/nsenter",
            [
                "--net=/proc/\(pid)/ns/net", "sh", "-c",
                "ip link set lo up && ip link set lo multicast on && ip route add 224.0.0.0/4 dev lo",
            ], timeout: 30)
        guard up.status == 0 else {
            throw LSLNamespaceError("configuring the namespace's loopback failed: \(up.errors)")
        }
    }

    deinit {
        try? holderInput.fileHandleForWriting.close()
        _ = holder.reapExitStatus(within: 10)
        try? FileManager.default.removeItem(at: directory)
    }

    /// `nsenter`'s arguments that put `command` in the namespace.
    func inside(_ command: [String]) -> [String] {
        ["--net=/proc/\(pid)/ns/net"] + command
    }

    /// Starts `command` in the namespace, with the LSL environment.
    func start(_ command: [String], environment extra: [String: String] = [:]) throws -> ServiceProcess {
        try ServiceProcess.start(
            "/usr/bin/nsenter", inside(command), environment: environment.merging(extra) { $1 },
            directory: directory.path)
    }

    /// Runs `command` in the namespace to its end.
    func run(_ command: [String], timeout: Double = 120) throws -> ChildOutput {
        try Process.runToEnd(
            "/usr/bin/nsenter", inside(command), directory: directory.path, environment: environment, timeout: timeout)
    }

    /// The liblsl pylsl's wheel carries, where `scripts/test.sh` installed it.
    static func pylslLibrary() throws -> String {
        let r = try Process.runToEnd(
            "python3",
            ["-c", "import pylsl,os; print(os.path.join(os.path.dirname(pylsl.__file__), 'lib', 'liblsl.so'))"],
            timeout: 60)
        let path = r.output.trimmingCharacters(in: .whitespacesAndNewlines)
        guard r.status == 0, FileManager.default.fileExists(atPath: path) else {
            throw LSLNamespaceError(
                "pylsl with its liblsl is needed (scripts/test.sh installs pylsl==1.18.6): \(r.errors)")
        }
        return path
    }

    /// One line from `handle`, waiting at most `seconds` for it.
    private static func readLine(_ handle: FileHandle, within seconds: Double) -> String? {
        var pfd = pollfd(fd: handle.fileDescriptor, events: Int16(POLLIN), revents: 0)
        let deadline = Date().addingTimeInterval(seconds)
        var bytes: [UInt8] = []
        while Date() < deadline {
            let left = Int32(max(1, deadline.timeIntervalSinceNow * 1000))
            guard poll(&pfd, 1, left) > 0 else { continue }
            var byte: UInt8 = 0
            guard read(handle.fileDescriptor, &byte, 1) == 1 else { return nil }
            if byte == UInt8(ascii: "\n") { return String(decoding: bytes, as: UTF8.self) }
            bytes.append(byte)
        }
        return nil
    }
}

struct LSLNamespaceError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
