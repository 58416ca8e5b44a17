import Foundation
import Testing

/// A tap's rate comes from the command line or from any peer of the control socket: out of
/// range it is refused, and the run it watches goes on (a rate of 9223372036854775807 trapped
/// the run's process).
@Suite("tap rates")
struct TapRateTests {
    /// A connection to the UNIX socket at `path`.
    static func connect(_ path: String) throws -> Int32 {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        try #require(fd >= 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, b) in path.utf8.prefix(raw.count - 1).enumerated() { raw[i] = b }
        }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard connected == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw POSIXError(.ECONNREFUSED, userInfo: ["reason": reason])
        }
        return fd
    }

    /// The first line `fd` reads, at most 4 KiB.
    static func readLine(_ fd: Int32) -> String {
        var answer: [UInt8] = []
        var byte: UInt8 = 0
        while answer.count < 4096, read(fd, &byte, 1) == 1, byte != 0x0A { answer.append(byte) }
        return String(decoding: answer, as: UTF8.self)
    }

    /// Sends `line` to the UNIX socket at `path` and returns the first line of the answer.
    static func ask(_ path: String, _ line: String) throws -> String {
        let fd = try connect(path)
        defer { close(fd) }
        let bytes = Array((line + "\n").utf8)
        try #require(write(fd, bytes, bytes.count) == bytes.count)
        return readLine(fd)
    }

    @Test func aHugeRateIsRefusedAndTheRunGoesOn() throws {
        let p = try ControlSocketTests.Running()
        let cli = try DAQBinary.run(["tap", p.name, "--max-rate", "9223372036854775807"])
        #expect(cli.status == 64, "\(cli.err)")
        #expect(cli.err.contains("--max-rate must be from 1 to 1000000; found 9223372036854775807"), "\(cli.err)")
        // A peer that skips the CLI's check is answered by the run itself.
        for rate in ["9223372036854775807", "99999999999999999999999", "0", "-5", "1e400"] {
            let answer = try Self.ask(p.socket, "tap * \(rate)")
            #expect(
                answer.hasPrefix(#"{"ok":false,"error":"tap: MAX-RATE must be a whole number from 1 to 1000000"#),
                "\(rate): \(answer)")
        }
        // The run still runs, and taps at the highest rate allowed.
        let tap = try LiveProcess(["tap", p.name, "pos", "--max-rate", "1000000", "--count", "3"])
        #expect(tap.line { $0 == "daq tap: tapping pos" } != nil, "\(tap.stderr)")
        for i in 1...6 { p.run.send("{\"v\": \(i)}\n") }
        #expect(tap.finish() == 0, "\(tap.stderr)")
        // Three samples, after the stream's descriptor.
        #expect(tap.stdoutLines.filter { !$0.hasPrefix(#"{"tap":"#) }.count == 3, "\(tap.stdoutLines)")
        #expect(p.run.finish() == 0, "\(p.run.stderr)")
        #expect(p.run.stderr.contains("\(p.name): finished"), "\(p.run.stderr)")
    }
}
