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
    @Setting(type: "double (dBm)", "Reports weaker than this are ignored.") var rssiThreshold = -100.0
    @Setting("Length of each discovery window on the run clock.") var scanDuration = Seconds(10)
    @Setting("Time between windows; reports in it join no module and are counted in a ble.pause event.")
    var pauseBetween = Seconds(0)
    @Setting("What makes two reports the same module.") var identifyBy = IdentifyBy.auto
    @Setting("n of the log-distance model: 2 in free space, 2.7–4 indoors.") var pathLossExponent = 2.0
    @Setting("A module's decoded fields from the first frame in the window that has them, or from the latest.")
    var values = KeptValues.first

    public init() {}

    public func validate() throws {
        if !(scanDuration.value > 0) { throw $scanDuration.issue("must be more than 0 s") }
        if !(pauseBetween.value >= 0) { throw $pauseBetween.issue("must be 0 s or more") }
        if !(-127...20).contains(rssiThreshold) {
            throw $rssiThreshold.issue("expected dBm between -127 and 20, found \(rssiThreshold)")
        }
        if !(pathLossExponent >= 1 && pathLossExponent <= 6) {
            throw $pathLossExponent.issue("expected 1 (free line of sight is 2) to 6, found \(pathLossExponent)")
        }
    }
}
