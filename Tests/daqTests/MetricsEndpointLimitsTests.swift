import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The metrics endpoint cannot be held open: a request half sent is closed after the idle
/// timeout, and connections past the cap are closed as they come, so scrapes work again once
/// the flood's connections time out.
@Suite("metrics endpoint limits", .timeLimit(.minutes(20)))
struct MetricsEndpointLimitsTests {
    /// A TCP connection to 127.0.0.1:`port`.
    static func connect(_ port: UInt16) throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        try #require(fd >= 0)
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = port.bigEndian
        addr.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let r = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        try #require(r == 0, "connect: \(errno)")
        return fd
    }

    /// Whether the server closes `fd` (end of stream, or reset) within `seconds`.
    static func closedByServer(_ fd: Int32, within seconds: Int32) -> Bool {
        var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&p, 1, seconds * 1000) == 1 else { return false }
        var byte: UInt8 = 0
        return read(fd, &byte, 1) <= 0
    }

    @Test func halfSentRequestsAndFloodsCannotHoldTheEndpoint() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("daq-metrics-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("p.yaml").path
        try """
        name: held
        metrics:
          prometheus:
            listen: 127.0.0.1:0
        sources:
          in: {type: stdin, format: jsonl}
        sinks:
          out: {type: null, inputs: [in]}
        """.write(toFile: file, atomically: true, encoding: .utf8)
        let run = try LiveProcess(["run", file, "--status", "never"])
        let announced = try #require(run.line { $0.contains("metrics: http://127.0.0.1:") }, "\(run.stderr)")
        let url = String(announced[announced.range(of: "http://")!.lowerBound...])
        let port = try #require(UInt16(url.split(separator: ":").last!.split(separator: "/").first!))

        // A request half sent is closed, well before the test's own bound.
        let half = try Self.connect(port)
        _ = "GET /metr".withCString { write(half, $0, 9) }
        #expect(Self.closedByServer(half, within: 30), "a half-sent request was held open")
        close(half)

        // 32 idle connections fill the endpoint; the 33rd is closed at once.
        let held = try (0..<32).map { _ in try Self.connect(port) }
        let extra = try Self.connect(port)
        #expect(Self.closedByServer(extra, within: 5), "a connection past the cap was kept")
        close(extra)
        // Once they time out, a scrape is answered again.
        for fd in held { #expect(Self.closedByServer(fd, within: 30)) }
        for fd in held { close(fd) }
        #expect(try ObservabilityTests.get(url).status == 200)
        #expect(run.finish() == 0, "\(run.stderr)")
    }
}
