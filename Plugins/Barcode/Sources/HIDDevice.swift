import DAQCore
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A keyboard-wedge scanner on Linux evdev (`/dev/input/eventN`, better a stable
/// `/dev/input/by-id/…-event-kbd` link).
final class HIDDevice: ScannerDevice {
    /// `EVIOCGRAB`: `_IOW('E', 0x90, int)`.
    static let grabRequest: UInt = 0x4004_4590
    let path: String
    let grab: Bool
    private var decoder: InputEventDecoder

    init(path: String, layout: KeyboardLayout, grab: Bool) {
        self.path = path
        self.grab = grab
        decoder = InputEventDecoder(layout: layout)
    }

    func open() throws -> Int32 {
        let fd = Glibc.open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw DeviceError.opening(path, errno: errno, group: "input", kind: "scanner") }
        if grab, ioctl(fd, Self.grabRequest, 1) != 0 {
            let reason = String(cString: strerror(errno))
            _ = close(fd)
            throw DeviceError(
                path: path,
                reason:
                    "cannot grab the device exclusively (\(reason)); is it an evdev device, and not grabbed by another program? Set grab: false to share it"
            )
        }
        decoder = InputEventDecoder(layout: decoder.layout)
        return fd
    }

    func decode(_ bytes: UnsafeRawBufferPointer, into out: inout [UInt8]) {
        decoder.decode(bytes, into: &out)
    }

    func release(_ fd: Int32) {
        if grab { _ = ioctl(fd, Self.grabRequest, 0) }
    }
}
