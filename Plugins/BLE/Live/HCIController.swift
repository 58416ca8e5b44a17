import DAQCore
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Talks to a controller over a packet descriptor — a raw HCI socket live, one end of a
/// socket pair in tests — to configure and run LE scanning, and reads its events.
///
/// Commands wait for their Command Complete (or Command Status) event; other events that
/// arrive meanwhile (advertising reports) are kept for the next ``readEvents(_:)``.
final class HCIController {
    let fd: Int32
    let adapter: Int
    /// How long a command may wait for the controller's answer.
    let commandTimeout: Double
    private var early: [[UInt8]] = []
    private var buffer = [UInt8](repeating: 0, count: 1024)

    init(fd: Int32, adapter: Int, commandTimeout: Double = 2) {
        self.fd = fd
        self.adapter = adapter
        self.commandTimeout = commandTimeout
    }

    /// LE scan parameters in the controller's units.
    struct ScanParameters {
        var active: Bool
        /// 0.625 ms units, 0x0004…0x4000.
        var interval: UInt16
        var window: UInt16
    }

    /// Stops any scan in progress, sets the parameters and starts scanning.
    func startScan(_ p: ScanParameters, filterDuplicates: Bool) throws {
        // A scan left running by another program makes Set Scan Parameters fail: stop it first,
        // ignoring "command disallowed" when none was running.
        try command(ogf: 0x08, ocf: 0x000C, [0, 0], allowStatus: [0x0C])
        let params: [UInt8] = [
            p.active ? 1 : 0, UInt8(p.interval & 0xFF), UInt8(p.interval >> 8), UInt8(p.window & 0xFF),
            UInt8(p.window >> 8),
            0, 0,  // own address public, accept all advertisers
        ]
        try command(ogf: 0x08, ocf: 0x000B, params)
        try command(ogf: 0x08, ocf: 0x000C, [1, filterDuplicates ? 1 : 0])
    }

    /// Stops scanning; errors are ignored, the adapter may be gone.
    func stopScan() {
        _ = try? command(ogf: 0x08, ocf: 0x000C, [0, 0], allowStatus: [0x0C])
    }

    /// Sends one command and waits for its completion.
    /// - Throws: ``ScanError`` on a write error, a timeout, or a status other than success.
    func command(ogf: UInt16, ocf: UInt16, _ params: [UInt8], allowStatus: Set<UInt8> = []) throws {
        let opcode = (ogf << 10) | ocf
        let packet: [UInt8] = [0x01, UInt8(opcode & 0xFF), UInt8(opcode >> 8), UInt8(params.count)] + params
        guard write(fd, packet, packet.count) == packet.count else {
            throw HCISocket.writeError(adapter: adapter, errno: errno)
        }
        let deadline = Date().addingTimeInterval(commandTimeout)
        while true {
            let remaining = deadline.timeIntervalSinceNow
            guard remaining > 0 else {
                throw ScanError(
                    message:
                        "hci\(adapter) did not answer command 0x\(String(opcode, radix: 16)) within \(commandTimeout) s"
                )
            }
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&p, 1, Int32(remaining * 1000))
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0 else { continue }
            guard let event = try readPacket() else { continue }
            if let status = Self.completion(of: event, opcode: opcode) {
                if status == 0 || allowStatus.contains(status) { return }
                throw ScanError(
                    message: "hci\(adapter) refused command 0x\(String(opcode, radix: 16)): \(Self.statusText(status))")
            }
            early.append(event)
        }
    }

    /// The status of a Command Complete (0x0E) or Command Status (0x0F) event for `opcode`.
    static func completion(of event: [UInt8], opcode: UInt16) -> UInt8? {
        guard event.count >= 3, event[0] == 0x04 else { return nil }
        if event[1] == 0x0E, event.count >= 7, UInt16(event[4]) | UInt16(event[5]) << 8 == opcode { return event[6] }
        if event[1] == 0x0F, event.count >= 7, UInt16(event[5]) | UInt16(event[6]) << 8 == opcode { return event[3] }
        return nil
    }

    static func statusText(_ status: UInt8) -> String {
        switch status {
        case 0x01: return "unknown command (0x01): the adapter does not support LE scanning"
        case 0x0C: return "command disallowed (0x0C): another program may be scanning"
        case 0x12: return "invalid parameters (0x12): check scan_interval and scan_window"
        default: return "status 0x" + String(status, radix: 16, uppercase: true)
        }
    }

    /// Reads one packet; `nil` when none is waiting.
    /// - Throws: ``ScanError`` when the adapter went away.
    func readPacket() throws -> [UInt8]? {
        let n = read(fd, &buffer, buffer.count)
        if n > 0 { return Array(buffer[0..<n]) }
        if n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) { return nil }
        throw ScanError(message: "hci\(adapter) went away: \(n == 0 ? "closed" : String(cString: strerror(errno)))")
    }

    /// Passes every event packet waiting now (H4 type byte included) to `body`.
    func readEvents(_ body: ([UInt8]) -> Void) throws {
        for e in early { body(e) }
        early.removeAll()
        while let packet = try readPacket() { body(packet) }
    }
}
