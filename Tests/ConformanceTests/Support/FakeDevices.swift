import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A pseudo-terminal standing in for a serial scanner: the source opens `link`, a symlink to
/// the slave side; ``send(_:)`` writes what the scanner would send to the master side.
final class FakeSerialPort: @unchecked Sendable {
    // @unchecked: `master` is set in `init` and closed in `deinit`; `send` only writes to it.
    let link: String
    private let master: Int32

    init() throws {
        var m: Int32 = 0
        var s: Int32 = 0
        guard openpty(&m, &s, nil, nil, nil) == 0 else { throw CocoaError(.fileNoSuchFile) }
        var t = termios()
        tcgetattr(s, &t)
        cfmakeraw(&t)
        tcsetattr(s, TCSANOW, &t)
        let name = String(cString: ttyname(s))
        // Kept open: a pty whose slave side nobody holds reports a hang-up between runs.
        link = Fixtures.scratch() + "/ttyACM0"
        guard symlink(name, link) == 0 else { throw CocoaError(.fileWriteUnknown) }
        master = m
        slave = s
    }

    private let slave: Int32

    /// Writes `text` as the scanner would.
    func send(_ text: String) throws {
        let bytes = Array(text.utf8)
        guard write(master, bytes, bytes.count) == bytes.count else { throw CocoaError(.fileWriteUnknown) }
    }

    deinit {
        close(master)
        close(slave)
        unlink(link)
    }
}

/// A FIFO standing in for an evdev keyboard node: ``type(_:)`` writes the `input_event`
/// records a barcode wedge would. The write end stays open so readers never see end of input.
final class FakeKeyboard: @unchecked Sendable {
    // @unchecked: `writer` is set in `init` and closed in `deinit`.
    let path: String
    private let writer: Int32

    init() throws {
        path = Fixtures.scratch() + "/event0"
        guard mkfifo(path, 0o600) == 0 else { throw CocoaError(.fileWriteUnknown) }
        writer = open(path, O_RDWR)
    }

    /// Types `digits` and Enter.
    func type(_ digits: String) throws {
        // Linux key codes: 1…9 are KEY_1 (2) … KEY_9 (10), 0 is KEY_0 (11); Enter is 28.
        var bytes: [UInt8] = []
        for d in digits.compactMap(\.wholeNumberValue) { bytes += Self.tap(d == 0 ? 11 : UInt16(d + 1)) }
        bytes += Self.tap(28)
        guard write(writer, bytes, bytes.count) == bytes.count else { throw CocoaError(.fileWriteUnknown) }
    }

    static func event(_ type: UInt16, _ code: UInt16, _ value: Int32) -> [UInt8] {
        var r: [UInt8] = []
        withUnsafeBytes(of: Int64(1_700_000_000).littleEndian) { r += $0 }
        withUnsafeBytes(of: Int64(0).littleEndian) { r += $0 }
        withUnsafeBytes(of: type.littleEndian) { r += $0 }
        withUnsafeBytes(of: code.littleEndian) { r += $0 }
        withUnsafeBytes(of: value.littleEndian) { r += $0 }
        return r
    }

    /// Press and release, each followed by a sync record, as a keyboard sends them.
    static func tap(_ code: UInt16) -> [UInt8] {
        event(1, code, 1) + event(0, 0, 0) + event(1, code, 0) + event(0, 0, 0)
    }

    deinit {
        close(writer)
        unlink(path)
    }
}
