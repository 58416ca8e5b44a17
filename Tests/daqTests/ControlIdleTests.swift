import Foundation
import Testing

/// The control socket under clients that connect and say nothing: past the cap they are
/// refused at once, the rest let go after the idle timeout, and the run is steered as before.
@Suite("control socket limits")
struct ControlIdleTests {
    @Test func threeHundredIdleClientsAreRefusedOrReleased() throws {
        let p = try ControlSocketTests.Running(extra: ["--control-idle-timeout", "1"])
        var open: Set<Int32> = []
        defer { for fd in open { close(fd) } }
        for _ in 0..<300 { open.insert(try TapRateTests.connect(p.socket)) }
        // Each is released when the run closes it: the read sees the end. A bounded wait.
        var refused = 0
        let deadline = Date(timeIntervalSinceNow: 60)
        while !open.isEmpty && Date() < deadline {
            var fds = open.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            _ = poll(&fds, nfds_t(fds.count), 1000)
            for f in fds where f.revents != 0 {
                let line = TapRateTests.readLine(f.fd)
                if line.contains("too many clients") { refused += 1 }
                close(f.fd)
                open.remove(f.fd)
            }
        }
        #expect(open.isEmpty, "\(open.count) of 300 idle clients still connected after 60 s")
        // 64 are served (a few may be let go, and their places taken, before the last connects).
        #expect(refused <= 300 - 64 && refused >= 300 - 64 - 32, "\(refused) refused")
        #expect(try DAQBinary.run(["control", p.name, "stop"]).status == 0)
        #expect(p.run.finish() == 0, "\(p.run.stderr)")
    }
}
