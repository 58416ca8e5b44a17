import DAQCore

/// A keyboard-wedge barcode scanner read from Linux evdev: key codes with Shift mapped to
/// characters for the configured layout, Enter ending a code; optionally grabbed so its codes
/// do not also reach the console.
public final class HIDScannerSource: SourcePlugin, LiveScannerPlugin {
    public struct Configuration: PluginConfiguration {
        var device: String
        var layout = KeyboardLayout.us
        var grab = true
        var reopenInterval = Seconds(1)
        var session: SessionSettings

        enum CodingKeys: String, CodingKey {
            case device, layout, grab
            case reopenInterval = "reopen_interval"
        }

        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            device = try c.decode(String.self, forKey: .device)
            layout = try c.decodeIfPresent(KeyboardLayout.self, forKey: .layout) ?? .us
            grab = try c.decodeIfPresent(Bool.self, forKey: .grab) ?? true
            reopenInterval = try c.decodeIfPresent(Seconds.self, forKey: .reopenInterval) ?? Seconds(1)
            session = try SessionSettings(from: decoder)
        }

        public func validate() throws {
            try session.validate()
            if !(reopenInterval.value > 0) { throw ConfigIssue(key: "reopen_interval", "must be more than 0 s") }
        }
    }

    public static let typeName = "barcode.hid"
    public static let summary = "A keyboard-wedge barcode scanner on evdev (/dev/input/eventN), with scan sessions."
    public static let configKeys: [ConfigKey] = [
        .required("device", "path", "The evdev node; /dev/input/by-id/…-event-kbd stays the same across reboots."),
        ConfigKey("layout", KeyboardLayout.choices, default: "us", "The keyboard layout the scanner is set to type in."),
        ConfigKey("grab", "bool", default: "true", "Take the device exclusively so codes do not also reach the console."),
        LiveScanner.reopenIntervalKey,
    ] + SessionSettings.keys

    let scanner: LiveScanner

    public init(configuration: Configuration, context: PluginContext) throws {
        scanner = LiveScanner(
            device: HIDDevice(path: context.resolve(configuration.device), layout: configuration.layout, grab: configuration.grab),
            settings: configuration.session.resolved(in: context), terminator: .lf, reopenInterval: configuration.reopenInterval.value)
    }
}
