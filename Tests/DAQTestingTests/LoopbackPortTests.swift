import DAQTesting
import Foundation
import Testing

/// Ports for servers that tests stop and start again: never handed out twice, never from the
/// range the kernel gives outgoing connections, never one a listener holds.
@Suite(.timeLimit(.minutes(20))) struct LoopbackPortTests {
    @Test func portsAreDistinctAndBelowTheEphemeralRange() throws {
        let ports = try (0..<300).map { _ in try LoopbackPort.reserve() }
        #expect(Set(ports).count == ports.count)
        let range = try String(contentsOfFile: "/proc/sys/net/ipv4/ip_local_port_range", encoding: .utf8)
        let low = try #require(range.split(whereSeparator: \.isWhitespace).first.flatMap { Int($0) })
        #expect(ports.allSatisfy { $0 < low }, "\(ports.filter { $0 >= low })")
    }

    /// A broker holding a port: the next ports handed out while it runs are all others.
    @Test func aPortAListenerHoldsIsNotHandedOut() throws {
        let broker = try Mosquitto()
        try broker.start()
        defer { broker.stop() }
        for _ in 0..<50 { #expect(try LoopbackPort.reserve() != broker.port) }
        #expect(!LoopbackPort.isFree(broker.port))
    }
}
