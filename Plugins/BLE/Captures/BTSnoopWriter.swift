import DAQCore

/// Writes HCI events as a btsnoop capture (datalink 1002, H4), the format `btmon -w` and
/// Android's snoop log use, so a capture can be made from hex text: `daq test` feeds
/// advertising reports to `ble.replay` this way, through the same reader as a real capture.
public enum BTSnoopWriter {
    /// One HCI event packet, without the H4 packet-type byte: `3E …` for an LE Meta event.
    public struct Event: Sendable, Hashable {
        /// Seconds since 1970.
        public var time: Double
        /// The event bytes: event code, parameter length, parameters.
        public var bytes: [UInt8]

        /// Creates an event.
        public init(time: Double, bytes: [UInt8]) {
            self.time = time
            self.bytes = bytes
        }
    }

    /// The capture file's bytes.
    public static func capture(_ events: [Event]) -> [UInt8] {
        var out = Array("btsnoop\0".utf8) + be32(1) + be32(1002)
        for event in events {
            let packet = [0x04] + event.bytes  // H4: 0x04 marks an HCI event
            let micros = UInt64(bitPattern: Int64((event.time * 1e6).rounded()) + CaptureReader.btsnoopEpoch)
            // Original and included lengths, flags 3 (a received event), no drops.
            out += be32(UInt32(packet.count)) + be32(UInt32(packet.count)) + be32(3) + be32(0)
            out += be32(UInt32(micros >> 32)) + be32(UInt32(micros & 0xFFFF_FFFF)) + packet
        }
        return out
    }

    /// The bytes of hex text: pairs of digits, spaces, tabs and `:` allowed between them
    /// (``HexBytes/decode(_:)``).
    /// - Returns: `nil` when the text holds anything else or an odd number of digits.
    public static func bytes(hex text: String) -> [UInt8]? {
        HexBytes.decode(text)
    }

    private static func be32(_ v: UInt32) -> [UInt8] {
        [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)]
    }
}
