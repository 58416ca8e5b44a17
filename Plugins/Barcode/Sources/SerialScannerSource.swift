import DAQCore

/// A serial barcode scanner on a tty: raw mode via termios, codes cut at the terminator, one
/// session per code or per trigger. A device that disappears ends the session in progress in
/// `scan.error` and is reopened when it comes back.
public final class SerialScannerSource: SourcePlugin, LiveScannerPlugin {
    public struct Configuration: PluginConfiguration {
        var device: String
        var serial = SerialSettings()
        var terminator = Terminator.any
        var reopenInterval = Seconds(1)
        var session: SessionSettings

        enum CodingKeys: String, CodingKey {
            case device, baud, parity, terminator
            case dataBits = "data_bits", stopBits = "stop_bits", reopenInterval = "reopen_interval"
        }

        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            device = try c.decode(String.self, forKey: .device)
            serial.baud = try c.decodeIfPresent(Int.self, forKey: .baud) ?? 9600
            serial.dataBits = try c.decodeIfPresent(Int.self, forKey: .dataBits) ?? 8
            serial.parity = try c.decodeIfPresent(SerialSettings.Parity.self, forKey: .parity) ?? .none
            serial.stopBits = try c.decodeIfPresent(Int.self, forKey: .stopBits) ?? 1
            terminator = try c.decodeIfPresent(Terminator.self, forKey: .terminator) ?? .any
            reopenInterval = try c.decodeIfPresent(Seconds.self, forKey: .reopenInterval) ?? Seconds(1)
            session = try SessionSettings(from: decoder)
        }

        public func validate() throws {
            try serial.validate()
            try session.validate()
            if !(reopenInterval.value > 0) { throw ConfigIssue(key: "reopen_interval", "must be more than 0 s") }
        }
    }

    public static let typeName = "barcode.serial"
    public static let summary = "A serial barcode scanner on a tty (raw mode), with scan sessions; reopens a lost device."
    public static let configKeys: [ConfigKey] = [
        .required("device", "path", "The tty: /dev/ttyACM0, /dev/ttyUSB0, or a /dev/serial/by-id/… link."),
        ConfigKey("baud", "int", default: "9600", "Line speed."),
        ConfigKey("data_bits", "int", default: "8", "5, 6, 7 or 8."),
        ConfigKey("parity", SerialSettings.Parity.choices, default: "none", "Parity bit."),
        ConfigKey("stop_bits", "int", default: "1", "1 or 2."),
        ConfigKey("terminator", "any | cr | lf | crlf | byte", default: "any", "What ends a code; a byte as 3 or \"0x03\"."),
        LiveScanner.reopenIntervalKey,
    ] + SessionSettings.keys

    let scanner: LiveScanner

    public init(configuration: Configuration, context: PluginContext) throws {
        scanner = LiveScanner(
            device: SerialDevice(path: context.resolve(configuration.device), settings: configuration.serial),
            settings: configuration.session.resolved(in: context), terminator: configuration.terminator, reopenInterval: configuration.reopenInterval.value)
    }
}
