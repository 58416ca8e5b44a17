import DAQCore
import Dispatch
import Foundation
import Synchronization
import Testing

@testable import DAQBLE

#if canImport(Glibc)
    import Glibc
#endif

/// The controller's side of an HCI link, over one end of a packet socket pair: answers each
/// command with Command Complete (or the status given for its opcode) and records it.
final class FakeController: @unchecked Sendable {
    let host: Int32
    let device: Int32
    let commands = Mutex<[[UInt8]]>([])
    private let statuses: [UInt16: UInt8]
    private let done = DispatchSemaphore(value: 0)

    init(statuses: [UInt16: UInt8] = [:], answer: Bool = true) throws {
        var fds: [Int32] = [0, 0]
        try #require(socketpair(AF_UNIX, Int32(SOCK_SEQPACKET.rawValue), 0, &fds) == 0)
        host = fds[0]
        device = fds[1]
        _ = fcntl(host, F_SETFL, fcntl(host, F_GETFL) | O_NONBLOCK)
        self.statuses = statuses
        let thread = Thread { [self] in serve(answer: answer) }
        thread.start()
    }

    private func serve(answer: Bool) {
        var buffer = [UInt8](repeating: 0, count: 300)
        while true {
            let n = read(device, &buffer, buffer.count)
            guard n > 0 else { break }
            let packet = Array(buffer[0..<n])
            commands.withLock { $0.append(packet) }
            guard answer, packet.count >= 4, packet[0] == 0x01 else { continue }
            let opcode = UInt16(packet[1]) | UInt16(packet[2]) << 8
            send([0x04, 0x0E, 4, 1, packet[1], packet[2], statuses[opcode] ?? 0])
        }
        done.signal()
    }

    func send(_ packet: [UInt8]) { _ = write(device, packet, packet.count) }

    func close() {
        Glibc.shutdown(device, Int32(SHUT_RDWR))
        _ = done.wait(timeout: .now() + 5)
        Glibc.close(device)
        Glibc.close(host)
    }
}

@Suite(.timeLimit(.minutes(20))) struct HCIControllerTests {
    @Test func scanCommandsAreLaidOutAsTheSpecSays() throws {
        let fake = try FakeController()
        defer { fake.close() }
        let c = HCIController(fd: fake.host, adapter: 0)
        try c.startScan(.init(active: true, interval: 0x0010, window: 0x0010), filterDuplicates: false)
        c.stopScan()
        #expect(
            fake.commands.withLock { $0 } == [
                [0x01, 0x0C, 0x20, 0x02, 0x00, 0x00],  // LE Set Scan Enable: off
                [0x01, 0x0B, 0x20, 0x07, 0x01, 0x10, 0x00, 0x10, 0x00, 0x00, 0x00],  // parameters: active, 10 ms, 10 ms
                [0x01, 0x0C, 0x20, 0x02, 0x01, 0x00],  // enable, duplicates kept
                [0x01, 0x0C, 0x20, 0x02, 0x00, 0x00],  // off again at stop
            ])
    }

    @Test func eventsArrivingBeforeACompletionAreKeptInOrder() throws {
        let fake = try FakeController(answer: false)
        defer { fake.close() }
        let c = HCIController(fd: fake.host, adapter: 0, commandTimeout: 5)
        let report: [UInt8] = [0x04, 0x3E, 0x0C, 0x02, 0x01, 0x00, 0x00, 1, 2, 3, 4, 5, 6, 0x00, 0xC8]
        DispatchQueue.global().async {
            fake.send(report)
            fake.send([0x04, 0x0E, 4, 1, 0x0C, 0x20, 0])
        }
        try c.command(ogf: 0x08, ocf: 0x000C, [0, 0])
        fake.send(report)
        var events: [[UInt8]] = []
        while events.count < 2 { try c.readEvents { events.append($0) } }
        #expect(events == [report, report])
    }

    @Test func aRefusedCommandSaysWhy() throws {
        let fake = try FakeController(statuses: [0x200B: 0x12])
        defer { fake.close() }
        let c = HCIController(fd: fake.host, adapter: 0)
        do {
            try c.startScan(.init(active: false, interval: 4, window: 8), filterDuplicates: true)
            Issue.record("expected a refusal")
        } catch {
            #expect(
                "\(error)"
                    == "hci0 refused command 0x200b: invalid parameters (0x12): check scan_interval and scan_window")
        }
    }

    @Test func aSilentControllerTimesOut() throws {
        let fake = try FakeController(answer: false)
        defer { fake.close() }
        let c = HCIController(fd: fake.host, adapter: 1, commandTimeout: 0.2)
        #expect(throws: ScanError.self) { try c.command(ogf: 0x08, ocf: 0x000C, [0, 0]) }
    }

    @Test func aControllerThatGoesAwayIsAnError() throws {
        let fake = try FakeController()
        let c = HCIController(fd: fake.host, adapter: 0)
        Glibc.shutdown(fake.device, Int32(SHUT_RDWR))
        var thrown: (any Error)?
        for _ in 0..<1000 where thrown == nil {
            do { try c.readEvents { _ in } } catch { thrown = error }
            if thrown == nil {
                var p = pollfd(fd: fake.host, events: Int16(POLLIN), revents: 0)
                _ = poll(&p, 1, 100)
            }
        }
        #expect("\(try #require(thrown))".hasPrefix("hci0 went away"))
        fake.close()
    }

    @Test func aMissingAdapterOrPermissionIsExplained() {
        // This machine may or may not have Bluetooth; either way the message says what to do.
        do {
            let fd = try HCISocket.open(adapter: 57)
            close(fd)
            Issue.record("hci57 should not exist")
        } catch {
            let text = "\(error)"
            #expect(
                text.contains("hci57") || text.contains("Bluetooth support") || text.contains("permission"), "\(text)")
        }
    }
}
