import DAQCore

/// Discovery windows after a beacon SDK's scanner: reports at or above `rssi_threshold` are
/// gathered per module for `scan_duration` of run-clock time; when a window ends, one record per
/// module comes out, then a `ble.window` event with the count — 0 when nothing was found. With
/// `pause_between`, each pause ends with a `ble.pause` event counting the reports that fell in
/// it, so none goes unseen.
///
/// Windows are laid on the run clock from 0: window k covers
/// [k·(duration + pause), k·(duration + pause) + duration), its pause the rest of the period.
/// The same reports give the same records live, replayed at any speed, or as fast as possible.
public final class DiscoveryTransform: TransformPlugin {
    public typealias Configuration = DiscoverySettings

    public static let typeName = "ble.discovery"
    public static let summary = "Discovery windows: one record per module per scan_duration (RSSI, frames, distance)."
    public static let output = DiscoveryOutput.output

    /// Where the run clock stands: in window k's scan, or in the pause after it with the
    /// reports that fell in it.
    private enum State {
        case scanning(window: Int)
        case pausing(after: Int, reports: Int)
    }

    private let settings: DiscoverySettings
    private let period: Double
    private var state = State.scanning(window: 0)
    /// What the current window found: modules in the order first seen, reports below threshold.
    private var modules: [String: ModuleRecord] = [:]
    private var order: [String] = []
    private var below = 0
    /// What uptime 0 is on the reports' own clock (a capture's absolute time), from the first
    /// report: windows are dated on it, so a logger's `timestampDate` is the capture's, not the run's.
    private var timeBase: Double?
    /// Address → beacon identity, kept across windows: a module's address outlives a window.
    private var aliases: [String: String] = [:]

    public init(configuration: Configuration, context: PluginContext) throws {
        settings = configuration
        period = configuration.scanDuration.value + configuration.pauseBetween.value
    }

    /// Records, then a window's events, every `scan_duration + pause_between`; the input's time base.
    public func describe(input: StreamDescriptor, context: PluginContext) throws -> StreamDescriptor {
        DiscoveryOutput.describe(input: input, period: period)
    }

    private func start(of window: Int) -> Double { Double(window) * period }
    private func end(of window: Int) -> Double { start(of: window) + settings.scanDuration.value }

    /// The run-clock time of the next boundary: the end of a scan or of a pause.
    private var nextBoundary: Double {
        switch state {
        case .scanning(let k): return end(of: k)
        case .pausing(let k, _): return start(of: k + 1)
        }
    }

    public func start(context: StageContext) throws {
        context.requestTick(atUptime: nextBoundary)
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
            if timeBase == nil { timeBase = batch.timestamps[i] - u }
            if case .pausing(let k, let n) = state {
                state = .pausing(after: k, reports: n + 1)
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
            modules[id]!.add(s, rssi: rssi, keep: settings.values)
        }
        batch = out
        context.requestTick(atUptime: nextBoundary)
    }

    public func tick(now: Double, context: StageContext) throws -> Batch {
        var out = Batch(stream: context.name)
        close(upTo: now, into: &out, context: context)
        context.requestTick(atUptime: nextBoundary)
        return out
    }

    public func finish(context: StageContext) throws -> Batch {
        var out = Batch(stream: context.name)
        // The last window or pause is cut short by the end of input: reported all the same
        // when it saw anything.
        switch state {
        case .scanning(let k):
            if !modules.isEmpty { emitWindow(k, into: &out, context: context, partial: true) }
        case .pausing(let k, let n):
            if n > 0 { emitPause(after: k, reports: n, into: &out, context: context, partial: true) }
        }
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

    /// Ends every scan and pause whose end is at or before `t`.
    private func close(upTo t: Double, into out: inout Batch, context: StageContext) {
        while t >= nextBoundary {
            switch state {
            case .scanning(let k):
                emitWindow(k, into: &out, context: context, partial: false)
                state = period > settings.scanDuration.value ? .pausing(after: k, reports: 0) : .scanning(window: k + 1)
            case .pausing(let k, let n):
                emitPause(after: k, reports: n, into: &out, context: context, partial: false)
                state = .scanning(window: k + 1)
            }
        }
    }

    private func emitWindow(_ window: Int, into out: inout Batch, context: StageContext, partial: Bool) {
        let end = self.end(of: window)
        for id in order {
            guard let m = modules[id] else { continue }
            var s = m.sample(
                windowEnd: end, startDate: timeBase ?? context.startDate, exponent: settings.pathLossExponent,
                stream: context.name)
            s["window"] = .int(Int64(window))
            out.append(s)
        }
        var fields: Fields = [
            "event": .string("ble.window"), "window": .int(Int64(window)), "count": .int(Int64(order.count)),
            // On the data's time base, as every aggregate's bounds: a replayed capture's dates.
            "window_start": .double((timeBase ?? context.startDate) + start(of: window)),
            "window_end": .double((timeBase ?? context.startDate) + end),
            "below_threshold": .int(Int64(below)),
        ]
        if partial { fields["partial"] = .bool(true) }
        out.append(
            Sample(
                stream: context.name, timestamp: (timeBase ?? context.startDate) + end, uptime: end, kind: .event,
                fields: fields))
        modules = [:]
        order = []
        below = 0
    }

    /// `ble.pause`: how many reports fell in the pause after `window`, which no module took.
    private func emitPause(after window: Int, reports: Int, into out: inout Batch, context: StageContext, partial: Bool)
    {
        let from = end(of: window)
        let to = start(of: window + 1)
        var fields: Fields = [
            "event": .string("ble.pause"), "window": .int(Int64(window)), "reports": .int(Int64(reports)),
            "pause_start": .double((timeBase ?? context.startDate) + from),
            "pause_end": .double((timeBase ?? context.startDate) + to),
        ]
        if partial { fields["partial"] = .bool(true) }
        out.append(
            Sample(
                stream: context.name, timestamp: (timeBase ?? context.startDate) + to, uptime: to, kind: .event,
                fields: fields))
    }
}
