/// How often a stream samples, as its source says it was set to, not as measured.
public enum SampleRate: Sendable, Hashable {
    /// A nominal rate in samples per second: a device's configured rate, a generator's, an
    /// epoch's (0.2 Hz for 5 s epochs).
    case hz(Double)
    /// Samples come when something happens: a scan, a beacon, a message, a row that passes a filter.
    case irregular

    /// The rate in Hz, `nil` when irregular.
    public var hz: Double? {
        if case .hz(let r) = self { return r }
        return nil
    }

    /// The rate of every `period` seconds, irregular for a period that is not a positive finite number.
    public static func every(_ period: Double) -> SampleRate {
        period > 0 && period.isFinite ? .hz(1 / period) : .irregular
    }
}

/// What a stream's `timestamp` counts from.
public enum TimeBase: String, Sendable, Hashable, CaseIterable {
    /// The recording's own clock, with its dates: a device file, a CSV of epoch times. A
    /// replay keeps these dates whatever the run clock, and loggers write them.
    case recorded
    /// The recording's own clock, from an unknown date: seconds since the recording began (a
    /// CSV whose times start at 0). Loggers write no dates for it.
    case elapsed
    /// The run's wall clock: the run's start date plus the sample's uptime, as live sources stamp.
    case run
}

/// Where a stream comes from, as far as its source knows: every part is optional.
public struct StreamOrigin: Sendable, Hashable {
    /// The plugin type that produced it first (`motion.replay`, `ble.scan`).
    public var plugin: String?
    /// The device model (`AX3`, `wGT3X-BT`, a scanner's name).
    public var device: String?
    /// The device's serial number.
    public var serial: String?
    /// The file it was read from.
    public var file: String?
    /// The host it was acquired on or received from (a broker's, an LSL outlet's).
    public var host: String?
    /// A stable id of the stream across restarts (an LSL `source_id`).
    public var sourceID: String?

    /// Creates an origin.
    public init(
        plugin: String? = nil, device: String? = nil, serial: String? = nil, file: String? = nil, host: String? = nil,
        sourceID: String? = nil
    ) {
        self.plugin = plugin
        self.device = device
        self.serial = serial
        self.file = file
        self.host = host
        self.sourceID = sourceID
    }

    /// The parts both origins agree on: what a stream merged from two keeps.
    public func common(with other: StreamOrigin) -> StreamOrigin {
        func same(_ a: String?, _ b: String?) -> String? { a == b ? a : nil }
        return StreamOrigin(
            plugin: same(plugin, other.plugin), device: same(device, other.device),
            serial: same(serial, other.serial), file: same(file, other.file), host: same(host, other.host),
            sourceID: same(sourceID, other.sourceID))
    }
}
