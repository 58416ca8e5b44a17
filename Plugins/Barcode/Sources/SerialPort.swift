import DAQCore
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Line settings of a serial port.
struct SerialSettings: SettingGroup {
    enum Parity: String, ConfigEnum, Sendable { case none, even, odd }

    @Setting("Line speed.") var baud = 9600
    @Setting("5, 6, 7 or 8.") var dataBits = 8
    @Setting("Parity bit.") var parity = Parity.none
    @Setting("1 or 2.") var stopBits = 1

    init() {}

    static let speeds: [Int: speed_t] = [
        1200: speed_t(B1200), 2400: speed_t(B2400), 4800: speed_t(B4800), 9600: speed_t(B9600),
        19200: speed_t(B19200), 38400: speed_t(B38400), 57600: speed_t(B57600), 115200: speed_t(B115200),
        230400: speed_t(B230400), 460800: speed_t(B460800), 921600: speed_t(B921600),
    ]

    func validate() throws {
        if Self.speeds[baud] == nil {
            throw $baud.issue(
                "expected one of \(Self.speeds.keys.sorted().map(String.init).joined(separator: ", ")), found \(baud)")
        }
        if !(5...8).contains(dataBits) { throw $dataBits.issue("expected 5, 6, 7 or 8, found \(dataBits)") }
        if stopBits != 1 && stopBits != 2 { throw $stopBits.issue("expected 1 or 2, found \(stopBits)") }
    }

    /// Puts the terminal `fd` in raw mode with these settings: no echo, no line editing, no
    /// translation of CR or LF, so the scanner's bytes arrive as sent.
    func apply(to fd: Int32) throws {
        var t = termios()
        guard tcgetattr(fd, &t) == 0 else { throw SerialError.errno("cannot read the line settings") }
        cfmakeraw(&t)
        let speed = Self.speeds[baud] ?? speed_t(B9600)
        cfsetispeed(&t, speed)
        cfsetospeed(&t, speed)
        t.c_cflag &= ~(tcflag_t(CSIZE) | tcflag_t(PARENB) | tcflag_t(PARODD) | tcflag_t(CSTOPB) | tcflag_t(CRTSCTS))
        t.c_cflag |= tcflag_t([5: CS5, 6: CS6, 7: CS7, 8: CS8][dataBits] ?? CS8)
        if parity != .none { t.c_cflag |= tcflag_t(PARENB) }
        if parity == .odd { t.c_cflag |= tcflag_t(PARODD) }
        if stopBits == 2 { t.c_cflag |= tcflag_t(CSTOPB) }
        t.c_cflag |= tcflag_t(CLOCAL) | tcflag_t(CREAD)
        // VMIN 1 / VTIME 0 with O_NONBLOCK: an empty read is EAGAIN and a read of 0 bytes
        // means hang-up (VMIN 0 would return 0 for "no data" too, hiding a lost device).
        withUnsafeMutableBytes(of: &t.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        guard tcsetattr(fd, TCSANOW, &t) == 0 else { throw SerialError.errno("cannot set the line settings") }
    }
}

enum SerialError: Error, CustomStringConvertible {
    case message(String)
    static func errno(_ what: String) -> SerialError { .message("\(what): \(String(cString: strerror(Glibc.errno)))") }
    var description: String { if case .message(let m) = self { m } else { "" } }
}

/// A serial scanner on a tty (`/dev/ttyACM0`, `/dev/ttyUSB0`, or a pseudo-terminal).
final class SerialDevice: ScannerDevice {
    let path: String
    let settings: SerialSettings

    init(path: String, settings: SerialSettings) {
        self.path = path
        self.settings = settings
    }

    func open() throws -> Int32 {
        let fd = Glibc.open(path, O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw DeviceError.opening(path, errno: errno, group: "dialout", kind: "scanner") }
        guard isatty(fd) == 1 else {
            _ = close(fd)
            throw DeviceError(
                path: path, reason: "not a terminal device: a serial scanner is a tty such as /dev/ttyACM0")
        }
        do {
            try settings.apply(to: fd)
        } catch {
            _ = close(fd)
            throw DeviceError(path: path, reason: "\(error)")
        }
        return fd
    }

    func decode(_ bytes: UnsafeRawBufferPointer, into out: inout [UInt8]) {
        out.append(contentsOf: bytes)
    }

    func release(_ fd: Int32) {}
}
