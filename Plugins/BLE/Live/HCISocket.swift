import DAQCore
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Why live scanning cannot start, with what to do about it.
struct ScanError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}

/// A raw HCI socket bound to one adapter (`hci0`): commands go out as HCI command packets,
/// events come back as HCI event packets, one per read.
enum HCISocket {
    static let afBluetooth: Int32 = 31
    static let btprotoHCI: Int32 = 1
    static let solHCI: Int32 = 0
    static let hciFilter: Int32 = 2

    /// Opens and binds a raw socket to adapter `index`, filtered to the events scanning needs.
    /// - Throws: ``ScanError`` saying what to do for each usual cause.
    static func open(adapter index: Int) throws -> Int32 {
        let fd = socket(
            afBluetooth, Int32(SOCK_RAW.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue),
            btprotoHCI)
        guard fd >= 0 else {
            switch errno {
            case EPERM, EACCES:
                throw ScanError(
                    message:
                        "no permission for a raw HCI socket: run as root, or grant the capability: sudo setcap cap_net_raw,cap_net_admin+eip $(which daq)"
                )
            case EAFNOSUPPORT, EPROTONOSUPPORT:
                throw ScanError(
                    message:
                        "this kernel has no Bluetooth support (AF_BLUETOOTH): load the bluetooth module, or use ble.replay on a capture"
                )
            default:
                throw ScanError(message: "cannot open an HCI socket: \(String(cString: strerror(errno)))")
            }
        }
        // struct sockaddr_hci { sa_family_t family; unsigned short dev; unsigned short channel; }
        var address: [UInt16] = [UInt16(afBluetooth), UInt16(index), 0]
        let bound = address.withUnsafeMutableBytes { raw in
            bind(fd, raw.baseAddress!.assumingMemoryBound(to: sockaddr.self), socklen_t(raw.count))
        }
        guard bound == 0 else {
            let code = errno
            close(fd)
            switch code {
            case ENODEV:
                throw ScanError(
                    message: "no Bluetooth adapter hci\(index): list adapters with 'hciconfig' or 'bluetoothctl list'")
            case EPERM, EACCES:
                throw ScanError(
                    message: "no permission to bind hci\(index): run as root or grant cap_net_raw,cap_net_admin")
            default:
                throw ScanError(message: "cannot bind hci\(index): \(String(cString: strerror(code)))")
            }
        }
        // struct hci_filter { u32 type_mask; u32 event_mask[2]; u16 opcode; } (16 bytes padded):
        // event packets only; Command Complete 0x0E, Command Status 0x0F, LE Meta 0x3E.
        var filter = [UInt32](repeating: 0, count: 4)
        filter[0] = 1 << 4
        filter[1] = (1 << 0x0E) | (1 << 0x0F)
        filter[2] = 1 << (0x3E - 32)
        let set = filter.withUnsafeBytes { setsockopt(fd, solHCI, hciFilter, $0.baseAddress, socklen_t($0.count)) }
        guard set == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw ScanError(message: "cannot set the HCI event filter: \(reason)")
        }
        return fd
    }

    /// The error for a failed write of a command, naming the usual cause.
    static func writeError(adapter index: Int, errno code: Int32) -> ScanError {
        if code == ENETDOWN {
            return ScanError(
                message:
                    "adapter hci\(index) is down: power it on with 'bluetoothctl power on' or 'sudo hciconfig hci\(index) up'"
            )
        }
        return ScanError(message: "cannot send an HCI command to hci\(index): \(String(cString: strerror(code)))")
    }
}
