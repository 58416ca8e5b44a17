import DAQCore

/// What `ble.discovery` emits: one record per module per window (``ModuleRecord/sample``),
/// then the window's `ble.window` event, and a `ble.pause` event after each pause.
enum DiscoveryOutput {
    /// A module's record, in the order ``ModuleRecord`` writes it; its reports' other decoded
    /// fields follow, then `window`.
    static let record = [
        OutputField("module", .string, "the module's identity: ibeacon:…, eddystone:… or its address"),
        OutputField("address", .string, "the address it was heard from"),
        OutputField("first_seen", .double, unit: "s", "its first report in the window, on the input's time base"),
        OutputField("last_seen", .double, unit: "s", "its last report in the window"),
        OutputField("rssi_last", .double, unit: "dBm", "RSSI of its last report"),
        OutputField("rssi_mean", .double, unit: "dBm", "mean RSSI"),
        OutputField("rssi_max", .double, unit: "dBm", "strongest RSSI"),
        OutputField("frames", .int, "reports taken in the window"),
        OutputField("frame_types", .array, "beacon formats seen, in order"),
        OutputField("tx_power", .double, unit: "dBm", "advertised TX power, null when none was"),
        OutputField("measured_power", .double, unit: "dBm", "RSSI at 1 m the beacon states, null when none did"),
        OutputField("distance_m", .double, unit: "m", "log-distance estimate, null without a reference power"),
    ]

    /// The window's number, on records and events alike, then the events' own fields.
    static let events = [
        OutputField("window", .int, "the window's number, from 0"),
        OutputField("event", .string, "ble.window or ble.pause"),
        OutputField("count", .int, "ble.window: modules found"),
        OutputField("window_start", .double, unit: "s", "ble.window: its start, on the input's time base"),
        OutputField("window_end", .double, unit: "s", "ble.window: its end, on the input's time base"),
        OutputField("below_threshold", .int, "ble.window: reports weaker than rssi_threshold"),
        OutputField("partial", .bool, "true when the input ended the window or pause early"),
        OutputField("reports", .int, "ble.pause: reports that fell in the pause"),
        OutputField("pause_start", .double, unit: "s", "ble.pause: its start, on the input's time base"),
        OutputField("pause_end", .double, unit: "s", "ble.pause: its end, on the input's time base"),
    ]

    /// The reference `daq plugins describe` prints.
    static let output = StreamOutput(
        .own,
        record + [
            OutputField("<report field>", .any, "every other field the module's reports decoded, as they hold it")
        ]
            + events,
        note: "a window every scan_duration + pause_between s; stamped on the input's time base")

    /// The output over `input`: the record, the input's fields a record carries over (those of
    /// one report, ``DiscoveryFields/perReport``, do not; the record's own take their place),
    /// then the events'. A window comes every `period` seconds.
    static func describe(input: StreamDescriptor, period: Double) -> StreamDescriptor {
        var d = input
        let own = record.map(\.descriptor)
        let ownNames = Set((record + events).map(\.name))
        let carried = input.fields.filter {
            !DiscoveryFields.perReport.contains($0.name) && !ownNames.contains($0.name)
        }
        d.fields = own + carried + events.map(\.descriptor)
        d.rate = .every(period)
        return d
    }
}
