import DAQCore
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Scans live through a raw HCI socket: sets the scan parameters, enables scanning, decodes
/// the LE advertising reports the controller sends, and disables scanning on stop (a graceful
/// stop, SIGINT included). Needs CAP_NET_RAW (root, or `setcap`); the error says so.
public final class BLEScanSource: SourcePlugin {
    public struct Configuration: PluginConfiguration {
        @Setting("The adapter, as hciconfig names it.") var adapter = "hci0"
        @Setting("Send scan requests to get scan responses (names, often).") var active = false
        @Setting("How often the controller starts a scan window.") var interval = Seconds(0.01)
        @Setting("How long each window listens (≤ interval).") var window = Seconds(0.01)
        @Setting("Let the controller drop repeated reports (fewer, but no RSSI updates).") var filterDuplicates = false
        var custom = DecoderSettings()

        public init() {}

        public func validate() throws {
            if adapterIndex == nil { throw $adapter.issue("expected hciN, found '\(adapter)'") }
            for setting in [$interval, $window] where !(0.0025...10.24).contains(setting.wrappedValue.value) {
                throw setting.issue("must be 2.5 ms to 10.24 s, found \(setting.wrappedValue.value) s")
            }
            if window.value > interval.value { throw $window.issue("must not be longer than interval") }
            try custom.validate()
        }

        var adapterIndex: Int? { adapter.hasPrefix("hci") ? Int(adapter.dropFirst(3)) : nil }

        /// Seconds in the controller's units of 0.625 ms.
        static func units(_ s: Seconds) -> UInt16 { UInt16(max(4, min(0x4000, (s.value / 0.000625).rounded()))) }
    }

    public static let typeName = "ble.scan"
    public static let summary =
        "Live LE scanning through a raw HCI socket (needs CAP_NET_RAW); same decoding as ble.replay."
    public static let output = BLEOutput.output(
        note: "one sample per report, irregular, on the run clock; origin: the adapter (hci0)")

    private let config: Configuration
    private var controller: HCIController?
    private var readWatch: StageTask?
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
        reports = ReportBatch(decoder: AdvertisingDecoder(custom: configuration.custom.decoders))
    }

    /// Declared from configuration alone: describing opens no socket.
    public func describe(context: PluginContext) throws -> StreamDescriptor {
        StreamDescriptor(
            fields: BLEOutput.fields(custom: reports.decoder.custom), rate: .irregular, timeBase: .run,
            origin: StreamOrigin(plugin: Self.typeName, device: config.adapter),
            metadata: ["scan": config.active ? "active" : "passive"])
    }

    public func start(context: StageContext) throws {
        let fd = try openDescriptor()
        let c = HCIController(fd: fd, adapter: config.adapterIndex ?? 0)
        do {
            try c.startScan(
                .init(
                    active: config.active, interval: Configuration.units(config.interval),
                    window: Configuration.units(config.window)),
                filterDuplicates: config.filterDuplicates)
        } catch {
            close(fd)
            throw error
        }
        controller = c
        // A descriptor of the watch's own, which it closes once libdispatch lets go of it, so
        // `stop` may close the controller's at once.
        readWatch = context.watch(fileDescriptor: dup(fd), for: .read, closesDescriptor: true) { context.wake() }
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
        readWatch?.cancel()
        readWatch = nil
        if let controller {
            controller.stopScan()
            close(controller.fd)
        }
        controller = nil
    }
}
