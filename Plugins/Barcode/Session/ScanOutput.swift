import DAQCore

/// What every scanner source emits: `scan.*` events only (``ScanSessions``), each with its
/// session's number; `scan.data` adds the code's fields, `scan.cancel` and `scan.error` the
/// reason, `scan.timeout` how long the session waited.
enum ScanOutput {
    /// In the order ``ScanSessions`` writes them.
    static let fields = [
        OutputField("event", .string, "scan.start, scan.data, scan.timeout, scan.cancel, scan.error or scan.stop"),
        OutputField("session", .int, "the session's number, from 1"),
        OutputField("code", .string, "scan.data: the code, AIM identifier stripped"),
        OutputField("symbology", .string, "scan.data: gs1-128, ean-13, … or unknown"),
        OutputField("aim", .string, "scan.data: the AIM identifier (]C1), null when none was sent"),
        OutputField("raw", .bytes, "scan.data: the bytes as received"),
        OutputField("reason", .string, "scan.cancel, scan.error: why"),
        OutputField("timeout", .double, unit: "s", "scan.timeout: how long the session stayed open"),
    ]

    /// A scanner source's reference for `daq plugins describe`.
    static func output(note: String) -> StreamOutput { StreamOutput(.own, fields, note: note) }

    /// A scanner source's descriptor: sessions come when codes and triggers do.
    static func descriptor(timeBase: TimeBase, origin: StreamOrigin) -> StreamDescriptor {
        StreamDescriptor(fields: fields.map(\.descriptor), rate: .irregular, timeBase: timeBase, origin: origin)
    }
}
