import DAQCore

/// How `ble.discovery` tells modules apart.
public enum IdentifyBy: String, ConfigEnum, Sendable {
    /// The advertiser's address (a module with a random, rotating address appears anew).
    case address
    /// iBeacon proximity UUID, major and minor; other frames fall back to the address.
    case ibeacon
    /// Eddystone-UID namespace and instance; other frames fall back to the address.
    case eddystone
    /// iBeacon or Eddystone identity when the module sends one, else the address.
    case auto
}

/// Which frame's values a module's record keeps when a field changes within a window.
public enum KeptValues: String, ConfigEnum, Sendable {
    /// The first value of each field in the window, as the beacon SDK's scanner keeps them.
    case first
    /// The latest value of each field in the window.
    case last
}

/// The discovery settings of a beacon SDK's scanner, on the run clock.
public struct DiscoverySettings: PluginConfiguration {
    var rssiThreshold = -100.0
    var scanDuration = Seconds(10)
    var pauseBetween = Seconds(0)
    var identifyBy = IdentifyBy.auto
    var pathLossExponent = 2.0
    var values = KeptValues.first

    enum CodingKeys: String, CodingKey {
        case rssiThreshold = "rssi_threshold"
        case scanDuration = "scan_duration"
        case pauseBetween = "pause_between"
        case identifyBy = "identify_by"
        case pathLossExponent = "path_loss_exponent"
        case values
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        rssiThreshold = try c.decodeIfPresent(Double.self, forKey: .rssiThreshold) ?? -100
        scanDuration = try c.decodeIfPresent(Seconds.self, forKey: .scanDuration) ?? Seconds(10)
        pauseBetween = try c.decodeIfPresent(Seconds.self, forKey: .pauseBetween) ?? Seconds(0)
        identifyBy = try c.decodeIfPresent(IdentifyBy.self, forKey: .identifyBy) ?? .auto
        pathLossExponent = try c.decodeIfPresent(Double.self, forKey: .pathLossExponent) ?? 2
        values = try c.decodeIfPresent(KeptValues.self, forKey: .values) ?? .first
    }

    public func validate() throws {
        if !(scanDuration.value > 0) { throw ConfigIssue(key: "scan_duration", "must be more than 0 s") }
        if !(pauseBetween.value >= 0) { throw ConfigIssue(key: "pause_between", "must be 0 s or more") }
        if !(-127...20).contains(rssiThreshold) {
            throw ConfigIssue(key: "rssi_threshold", "expected dBm between -127 and 20, found \(rssiThreshold)")
        }
        if !(pathLossExponent >= 1 && pathLossExponent <= 6) {
            throw ConfigIssue(
                key: "path_loss_exponent", "expected 1 (free line of sight is 2) to 6, found \(pathLossExponent)")
        }
    }

    static let keys: [ConfigKey] = [
        ConfigKey("rssi_threshold", "double (dBm)", default: "-100", "Reports weaker than this are ignored."),
        ConfigKey("scan_duration", "seconds", default: "10 s", "Length of each discovery window on the run clock."),
        ConfigKey(
            "pause_between", "seconds", default: "0 s",
            "Time between windows; reports in it join no module and are counted in a ble.pause event."),
        ConfigKey("identify_by", IdentifyBy.choices, default: "auto", "What makes two reports the same module."),
        ConfigKey(
            "path_loss_exponent", "double", default: "2", "n of the log-distance model: 2 in free space, 2.7–4 indoors."
        ),
        ConfigKey(
            "values", KeptValues.choices, default: "first",
            "A module's decoded fields from the first frame in the window that has them, or from the latest."),
    ]
}
