import DAQCore

/// Discovery windows after a beacon SDK's scanner: reports at or above `rssi_threshold` are
/// gathered per module for `scan_duration` of run-clock time; when a window ends, one record per
/// module comes out, then a `ble.window` event with the count — 0 when nothing was found.
///
/// Windows are laid on the run clock from 0: window k covers
/// [k·(duration + pause), k·(duration + pause) + duration). The same reports give the same
/// records live, replayed at any speed, or as fast as possible.
public final class DiscoveryTransform: TransformPlugin {
    public typealias Configuration = DiscoverySettings

    public static let typeName = "ble.discovery"
    public static let summary = "Discovery windows: one record per module per scan_duration (RSSI, frames, distance)."
    public static let configKeys = DiscoverySettings.keys

    private let settings: DiscoverySettings
    private let period: Double
    private var window = 0
    private var modules: [String: ModuleRecord] = [:]
    private var order: [String] = []
    private var below = 0
    private var inPause = 0
    /// Address → beacon identity, kept across windows: a module's address outlives a window.
    private var aliases: [String: String] = [:]

    public init(configuration: Configuration, context: PluginContext) throws {
        settings = configuration
        period = configuration.scanDuration.value + configuration.pauseBetween.value
    }

    private var windowStart: Double { Double(window) * period }
    private var windowEnd: Double { windowStart + settings.scanDuration.value }

    public func start(context: StageContext) throws {
        context.requestTick(atUptime: windowEnd)
    }

    public func process(_ batch: inout Batch, context: StageContext) throws {
        var out = Batch(stream: context.name)
        for i in 0..<batch.count {
            let u = batch.uptimes[i]
            close(upTo: u, into: &out, context: context)
            guard batch.kinds[i] == .data else {
                out.append(batch[i])
                continue
            }
            guard u >= windowStart else {
                inPause += 1
                continue
            }
            let s = batch[i]
            guard let rssi = s[DiscoveryFields.rssi]?.doubleValue, let id = identity(of: s) else { continue }
            guard rssi >= settings.rssiThreshold else {
                below += 1
                continue
            }
            if modules[id] == nil {
                modules[id] = ModuleRecord(
                    id: id, address: s[DiscoveryFields.address]?.stringValue ?? "", timestamp: s.timestamp, rssi: rssi)
                order.append(id)
            }
            modules[id]!.add(s, rssi: rssi)
        }
        batch = out
        context.requestTick(atUptime: windowEnd)
    }

    public func tick(now: Double, context: StageContext) throws -> Batch {
        var out = Batch(stream: context.name)
        close(upTo: now, into: &out, context: context)
        context.requestTick(atUptime: windowEnd)
        return out
    }

    public func finish(context: StageContext) throws -> Batch {
        var out = Batch(stream: context.name)
        // The last window is cut short by the end of input: it is reported all the same.
        if !modules.isEmpty { emitWindow(into: &out, context: context, partial: true) }
        return out
    }

    /// A report without a beacon identity (an Eddystone-TLM frame, a scan response) belongs to
    /// the module whose identity was last seen from the same address.
    private func identity(of s: Sample) -> String? {
        guard let id = DiscoveryFields.identity(s, by: settings.identifyBy) else { return nil }
        guard let address = s[DiscoveryFields.address]?.stringValue else { return id }
        if id != address {
            if aliases[address] == nil, var earlier = modules.removeValue(forKey: address) {
                // Frames seen before the identity (a TLM first) belong to the same module.
                earlier.id = id
                modules[id] = earlier
                if let i = order.firstIndex(of: address) { order[i] = id }
            }
            aliases[address] = id
            return id
        }
        return aliases[address] ?? id
    }

    /// Ends every window whose end is at or before `t`.
    private func close(upTo t: Double, into out: inout Batch, context: StageContext) {
        while t >= windowEnd {
            emitWindow(into: &out, context: context, partial: false)
            window += 1
        }
    }

    private func emitWindow(into out: inout Batch, context: StageContext, partial: Bool) {
        let end = windowEnd
        for id in order {
            guard let m = modules[id] else { continue }
            var s = m.sample(windowEnd: end, startDate: context.startDate, exponent: settings.pathLossExponent, stream: context.name)
            s["window"] = .int(Int64(window))
            out.append(s)
        }
        var fields: Fields = [
            "event": .string("ble.window"), "window": .int(Int64(window)), "count": .int(Int64(order.count)),
            "window_start": .double(windowStart), "window_end": .double(end),
            "below_threshold": .int(Int64(below)),
        ]
        if partial { fields["partial"] = .bool(true) }
        out.append(Sample(stream: context.name, timestamp: context.startDate + end, uptime: end, kind: .event, fields: fields))
        modules = [:]
        order = []
        below = 0
    }
}
