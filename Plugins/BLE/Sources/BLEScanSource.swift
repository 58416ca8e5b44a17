import DAQCore
import Dispatch
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Scans live through a raw HCI socket: sets the scan parameters, enables scanning, decodes
/// the LE advertising reports the controller sends, and disables scanning on stop (a graceful
/// stop, SIGINT included). Needs CAP_NET_RAW (root, or `setcap`); the error says so.
public final class BLEScanSource: SourcePlugin {
    public struct Configuration: PluginConfiguration {
        var adapter = "hci0"
        var active = false
        var interval = Seconds(0.01)
        var window = Seconds(0.01)
        var filterDuplicates = false
        var decoders: [ManufacturerDecoder]

        enum CodingKeys: String, CodingKey {
            case adapter, active, interval, window, decoders
            case filterDuplicates = "filter_duplicates"
        }

        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            adapter = try c.decodeIfPresent(String.self, forKey: .adapter) ?? "hci0"
            active = try c.decodeIfPresent(Bool.self, forKey: .active) ?? false
            interval = try c.decodeIfPresent(Seconds.self, forKey: .interval) ?? Seconds(0.01)
            window = try c.decodeIfPresent(Seconds.self, forKey: .window) ?? Seconds(0.01)
            filterDuplicates = try c.decodeIfPresent(Bool.self, forKey: .filterDuplicates) ?? false
            decoders = try DecoderSettings.decode(c, .decoders)
        }

        public func validate() throws {
            if adapterIndex == nil { throw ConfigIssue(key: "adapter", "expected hciN, found '\(adapter)'") }
            for (key, v) in [("interval", interval.value), ("window", window.value)] where !(0.0025...10.24).contains(v) {
                throw ConfigIssue(key: key, "must be 2.5 ms to 10.24 s, found \(v) s")
            }
            if window.value > interval.value { throw ConfigIssue(key: "window", "must not be longer than interval") }
            try DecoderSettings.validate(decoders)
        }

        var adapterIndex: Int? { adapter.hasPrefix("hci") ? Int(adapter.dropFirst(3)) : nil }

        /// Seconds in the controller's units of 0.625 ms.
        static func units(_ s: Seconds) -> UInt16 { UInt16(max(4, min(0x4000, (s.value / 0.000625).rounded()))) }
    }

    public static let typeName = "ble.scan"
    public static let summary = "Live LE scanning through a raw HCI socket (needs CAP_NET_RAW); same decoding as ble.replay."
    public static let configKeys: [ConfigKey] = [
        ConfigKey("adapter", "string", default: "hci0", "The adapter, as hciconfig names it."),
        ConfigKey("active", "bool", default: "false", "Send scan requests to get scan responses (names, often)."),
        ConfigKey("interval", "seconds", default: "10 ms", "How often the controller starts a scan window."),
        ConfigKey("window", "seconds", default: "10 ms", "How long each window listens (≤ interval)."),
        ConfigKey("filter_duplicates", "bool", default: "false", "Let the controller drop repeated reports (fewer, but no RSSI updates)."),
        DecoderSettings.key,
    ]

    private let config: Configuration
    private var controller: HCIController?
    private var readSource: (any DispatchSourceRead)?
    private var reports: ReportBatch
    private let openDescriptor: () throws -> Int32
    private var malformed = 0

    public convenience init(configuration: Configuration, context: PluginContext) throws {
        let index = configuration.adapterIndex ?? 0
        try self.init(configuration: configuration, context: context, open: { try HCISocket.open(adapter: index) })
    }

    /// With `open` giving the packet descriptor: tests hand it one end of a socket pair and
    /// answer as a controller on the other, through the same code as a live adapter.
    init(configuration: Configuration, context: PluginContext, open: @escaping () throws -> Int32) throws {
        config = configuration
        openDescriptor = open
        reports = ReportBatch(decoder: AdvertisingDecoder(custom: configuration.decoders))
    }

    public func start(context: StageContext) throws {
        let fd = try openDescriptor()
        let c = HCIController(fd: fd, adapter: config.adapterIndex ?? 0)
        do {
            try c.startScan(
                .init(active: config.active, interval: Configuration.units(config.interval), window: Configuration.units(config.window)),
                filterDuplicates: config.filterDuplicates)
        } catch {
            close(fd)
            throw error
        }
        controller = c
        let s = DispatchSource.makeReadSource(fileDescriptor: fd, queue: DispatchQueue(label: "daq.ble.scan"))
        s.setEventHandler { context.wake() }
        s.activate()
        readSource = s
    }

    public func read(into batch: inout Batch, limit: Int, context: StageContext) throws -> SourceStatus {
        guard let controller else { return .finished }
        let now = context.clock.now()
        let wall = context.startDate + now
        do {
            try readEvents(controller, now: now, wall: wall, context: context)
        } catch {
            reports.flush(into: &batch)  // reports read before the failure still go out
            throw error
        }
        reports.flush(into: &batch)
        return batch.isEmpty ? .idle : .more
    }

    private func readEvents(_ controller: HCIController, now: Double, wall: Double, context: StageContext) throws {
        try controller.readEvents { packet in
            guard packet.first == 0x04 else { return }
            packet.withUnsafeBytes { raw in
                do {
                    try HCIEvents.reports(in: UnsafeRawBufferPointer(rebasing: raw[1...]), timestamp: wall) { r in
                        reports.append(r, uptime: now)
                    }
                } catch {
                    malformed += 1
                    if malformed <= 20 { context.warn("\(config.adapter): malformed event: \(error)") }
                }
            }
        }
    }

    public func stop(context: StageContext) {
        readSource?.cancel()
        readSource = nil
        if let controller {
            controller.stopScan()
            close(controller.fd)
        }
        controller = nil
    }
}
