import DAQCore

/// A serial barcode scanner on a tty: raw mode via termios, codes cut at the terminator, one
/// session per code or per trigger. A device that disappears ends the session in progress in
/// `scan.error` and is reopened when it comes back.
public final class SerialScannerSource: SourcePlugin, LiveScannerPlugin {
    public struct Configuration: PluginConfiguration {
        @Setting(type: "path", required: "The tty: /dev/ttyACM0, /dev/ttyUSB0, or a /dev/serial/by-id/… link.")
        var device: String
        var serial = SerialSettings()
        @Setting("What ends a code; a byte as 3 or \"0x03\".") var terminator = Terminator.any
        var reopen = ReopenSettings()
        var session = SessionSettings()

        public init() {}

        public func validate() throws {
            try serial.validate()
            try session.validate()
            try reopen.validate()
        }
    }

    public static let typeName = "barcode.serial"
    public static let summary =
        "A serial barcode scanner on a tty (raw mode), with scan sessions; reopens a lost device."
    public static let output = ScanOutput.output(note: "scan events on the run clock; origin: the tty")

    let scanner: LiveScanner
    /// The device as configured, for the descriptor's origin.
    private let device: String

    public init(configuration: Configuration, context: PluginContext) throws {
        device = configuration.device
        scanner = LiveScanner(
            device: SerialDevice(path: context.resolve(configuration.device), settings: configuration.serial),
            settings: configuration.session.resolved(in: context), terminator: configuration.terminator,
            reopenInterval: configuration.reopen.reopenInterval.value)
    }

    /// Declared from configuration alone: describing opens no device.
    public func describe(context: PluginContext) throws -> StreamDescriptor {
        ScanOutput.descriptor(timeBase: .run, origin: StreamOrigin(plugin: Self.typeName, device: device))
    }
}
