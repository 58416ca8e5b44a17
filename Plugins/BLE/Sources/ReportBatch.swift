import DAQCore

/// Appends reports to a batch as samples: the report's own time (seconds since 1970) as
/// timestamp, the run clock counted from the first report. Rows are filled in place through
/// ``ReportColumns``; ``flush(into:)`` hands them over.
struct ReportBatch {
    let decoder: AdvertisingDecoder
    private(set) var first: Double?
    private var rows = ReportColumns()
    private var texts = DeviceTexts()

    init(decoder: AdvertisingDecoder) {
        self.decoder = decoder
    }

    /// `uptime` given for live reports (stamped by the run clock); replayed ones count from the first.
    mutating func append(_ r: LEReport, uptime: Double? = nil) {
        if first == nil { first = r.timestamp }
        let u = uptime ?? max(0, ((r.timestamp - first!) * 1e6).rounded() / 1e6)
        let decoder = decoder
        var texts = DeviceTexts()
        swap(&texts, &self.texts)
        defer { swap(&texts, &self.texts) }
        rows.appendRow(uptime: u, timestamp: r.timestamp) { row in r.write(into: &row, decoder: decoder, texts: &texts)
        }
    }

    /// Moves the reports appended so far to the end of `batch`.
    mutating func flush(into batch: inout Batch) {
        if rows.count > 0 { batch.append(contentsOf: rows.finish()) }
    }
}

/// Configuration keys both BLE sources take.
struct DecoderSettings: SettingGroup {
    @Setting("Manufacturer data of other vendors, decoded without Swift; types u8 i8 u16le … f32be.")
    var decoders: [ManufacturerDecoder] = []

    init() {}

    func validate() throws {
        for (i, d) in decoders.enumerated() { try d.validate(index: i) }
    }
}

extension ManufacturerDecoder: ConfigValue {
    public static var configType: String { "{company_id, name, match, fields: [{name, offset, type, scale, unit}]}" }
    /// A decoder has no default to show.
    public var configText: String? { nil }
}
