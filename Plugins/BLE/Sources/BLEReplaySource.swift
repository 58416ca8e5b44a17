import DAQCore

/// Replays a Bluetooth capture: btsnoop (`btmon -w`, Android's HCI snoop log), pcap or pcapng
/// with link type 201 (HCI H4) or 256 (LE link layer), told apart by their magic bytes. Each
/// advertising report becomes a sample at the capture's time, paced by the pipeline clock.
public final class BLEReplaySource: SourcePlugin {
    public struct Configuration: PluginConfiguration {
        @Setting(
            type: "path",
            required: "The capture: btmon -w output, btsnoop_hci.log, or pcap/pcapng (link type 201 or 256).")
        var path: String
        var custom = DecoderSettings()

        public init() {}

        public func validate() throws { try custom.validate() }
    }

    public static let typeName = "ble.replay"
    public static let summary =
        "Advertising reports from a capture (btsnoop, pcap, pcapng), decoded, paced by the clock."
    public static let output = BLEOutput.output(
        note: "one sample per report, irregular, stamped with the capture's own dates; origin: the capture file")

    private let path: String
    /// The path as configured, for the descriptor's origin.
    private let configuredPath: String
    private var reader: CaptureReader?
    private let decoder: AdvertisingDecoder
    private var reports: ReportBatch?
    private var reported = 0

    public init(configuration: Configuration, context: PluginContext) throws {
        path = context.resolve(configuration.path)
        configuredPath = configuration.path
        decoder = AdvertisingDecoder(custom: configuration.custom.decoders)
        reports = ReportBatch(decoder: decoder)
    }

    /// Declared from configuration alone: the capture's format does not change the fields, and
    /// its records' times are dates (btsnoop, pcap and pcapng all count from 1970 or convert to it).
    public func describe(context: PluginContext) throws -> StreamDescriptor {
        StreamDescriptor(
            fields: BLEOutput.fields(custom: decoder.custom), rate: .irregular, timeBase: .recorded,
            origin: StreamOrigin(plugin: Self.typeName, file: configuredPath))
    }

    public func start(context: StageContext) throws {
        reader = try CaptureReader(path: path)
    }

    public func read(into batch: inout Batch, limit: Int, context: StageContext) throws -> SourceStatus {
        guard let reader else { return .finished }
        // Filled as a local: appending to a property of a class is an access checked at run
        // time, which cost more per report than some of the decoding. Taken out, not swapped
        // with a new one: a new one would allocate its column buffers anew for every batch.
        var reports = self.reports.take() ?? ReportBatch(decoder: decoder)
        defer {
            // Reports read before a failure still go out.
            reports.flush(into: &batch)
            self.reports = reports
        }
        let more = try reader.read(limit: limit) { reports.append($0) }
        // Damaged records are reported by byte offset; reading goes on past them.
        while reported < reader.malformed.count {
            let entry = reader.malformed[reported]
            let problem = "\(path): \(entry)"
            if context.errorPolicy == .deadLetter {
                // The record's bytes are not kept: its file and byte offset stand in for them.
                let location = "\(path): \(entry.prefix { $0 != ":" })"
                context.reject(raw: location, uptime: batch.uptimes.last ?? 0, reason: problem)
            } else if reported < 20 {
                context.warn(problem)
            }
            reported += 1
        }
        if !more {
            if reported > 20 { context.warn("\(path): \(reported) damaged records in all") }
            context.notice("\(path): \(reader.records) records")
            self.reader = nil
            return .finished
        }
        return .more
    }
}
