import DAQCore

/// A keyboard-wedge barcode scanner read from Linux evdev: key codes with Shift mapped to
/// characters for the configured layout, Enter ending a code; optionally grabbed so its codes
/// do not also reach the console.
public final class HIDScannerSource: SourcePlugin, LiveScannerPlugin {
    public struct Configuration: PluginConfiguration {
        @Setting(type: "path", required: "The evdev node; /dev/input/by-id/…-event-kbd stays the same across reboots.")
        var device: String
        @Setting("The keyboard layout the scanner is set to type in.") var layout = KeyboardLayout.us
        @Setting("Take the device exclusively so codes do not also reach the console.") var grab = true
        var reopen = ReopenSettings()
        var session = SessionSettings()

        public init() {}

        public func validate() throws {
            try session.validate()
            try reopen.validate()
        }
    }

    public static let typeName = "barcode.hid"
    public static let summary = "A keyboard-wedge barcode scanner on evdev (/dev/input/eventN), with scan sessions."
    public static let output = ScanOutput.output(note: "scan events on the run clock; origin: the evdev node")

    let scanner: LiveScanner
    /// The device as configured, for the descriptor's origin.
    private let device: String

    public init(configuration: Configuration, context: PluginContext) throws {
        device = configuration.device
        scanner = LiveScanner(
            device: HIDDevice(
                path: context.resolve(configuration.device), layout: configuration.layout, grab: configuration.grab),
            settings: configuration.session.resolved(in: context), terminator: .lf,
            reopenInterval: configuration.reopen.reopenInterval.value)
    }

    /// Declared from configuration alone: describing opens no device.
    public func describe(context: PluginContext) throws -> StreamDescriptor {
        ScanOutput.descriptor(timeBase: .run, origin: StreamOrigin(plugin: Self.typeName, device: device))
    }
}
