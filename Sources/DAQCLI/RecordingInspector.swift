import DAQCore
import DAQMotion
import Foundation
import Synchronization
import Yams

/// Reads a recording twice, streaming: first for counts, axes, rate and steps, then for gaps
/// (which need the median period) and the plot's decimated series.
struct RecordingInspector {
    let config: String
    let path: String

    func inspect(plotWidth: Int) throws -> RecordingReport {
        var r = RecordingReport(path: path)
        var periods = Reservoir(capacity: 100_000)
        var previous: Double?
        var lastStep: String?
        let firstPass = try each { s in
            r.rows += 1
            if r.first == nil { r.first = s.uptime }
            r.last = s.uptime
            if r.firstTimestamp == nil { r.firstTimestamp = s.timestamp }
            r.lastTimestamp = s.timestamp
            if s.stepPath != lastStep, !s.stepPath.isEmpty {
                r.steps.append((s.stepPath, s.uptime))
                lastStep = s.stepPath
            }
            if let p = previous {
                let dt = s.uptime - p
                if dt < 0 {
                    r.backwards.append((s.uptime, dt))
                } else {
                    periods.add(dt)
                    r.period.add(dt)
                }
            }
            previous = s.uptime
            for (i, axis) in ["x", "y", "z"].enumerated() {
                if let v = s.fields[axis]?.doubleValue { r.axes[i].add(v) }
            }
        }
        (r.warnings, r.notes, r.device, r.stream) = firstPass
        r.medianPeriod = periods.median
        if r.steps.isEmpty { r.steps = Self.sidecarSteps(path) }
        guard let median = r.medianPeriod, median > 0 else { return r }
        let duration = max((r.last ?? 0) - (r.first ?? 0), 1e-9)
        var series = PlotSeries(buckets: plotWidth, start: r.first ?? 0, duration: duration)
        // A recording on an absolute clock that spans days is drawn one row per day of its zone.
        var days: DayPlot?
        if plotWidth > 0, r.spansDays {
            days = DayPlot(zone: r.stream?.timeZone.flatMap(ISODate.zone) ?? TimeZone(identifier: "UTC")!)
        }
        previous = nil
        _ = try each { s in
            if let p = previous, s.uptime - p > 2 * median { r.gaps.append((p, s.uptime - p)) }
            previous = s.uptime
            if plotWidth > 0, let x = s.fields["x"]?.doubleValue, let y = s.fields["y"]?.doubleValue,
                let z = s.fields["z"]?.doubleValue
            {
                let magnitude = (x * x + y * y + z * z).squareRoot()
                if days != nil {
                    days!.add(s.timestamp, magnitude)
                } else {
                    series.add(s.uptime, [x, y, z, magnitude])
                }
            }
        }
        r.series = series
        r.days = days
        return r
    }

    /// Streams every data sample of the recording through `body`; returns the warnings, the notes,
    /// what the file said about its device (the run manifest's `inputs` entry) and its stream's
    /// descriptor (units, zone), as a run would declare it.
    private func each(_ body: (Sample) -> Void) throws -> ([String], [String], Fields?, StreamDescriptor) {
        let configuration = try YAMLDecoder().decode(
            MotionReplaySource.Configuration.self, from: Yams.compose(yaml: config)!)
        try configuration.validate()
        let pluginContext = PluginContext(
            componentName: "recording", pipelineName: "inspect", baseDirectory: "", clock: .virtual)
        let source = try MotionReplaySource(configuration: configuration, context: pluginContext)
        let stream = try source.describe(context: pluginContext)
        let messages = Mutex<([String], [String])>(([], []))
        let context = StageContext.detached(
            name: "recording", kind: .source, clock: RunClock(mode: .virtual),
            onEvent: { event in
                switch event {
                case .warning(_, let m): messages.withLock { $0.0.append(m) }
                case .notice(_, let m): messages.withLock { $0.1.append(m) }
                default: break
                }
            })
        try source.start(context: context)
        defer { source.stop(context: context) }
        defer { _ = messages }
        var status = SourceStatus.more
        while status == .more {
            var batch = Batch(stream: "recording", capacity: 4096)
            status = try source.read(into: &batch, limit: 4096, context: context)
            let xs = batch.column("x")
            let ys = batch.column("y")
            let zs = batch.column("z")
            for i in 0..<batch.count {
                if batch.kinds[i] == .marker { continue }
                var s = Sample(timestamp: batch.timestamps[i], uptime: batch.uptimes[i], stepPath: batch.stepPaths[i])
                s.fields["x"] = xs?[i]
                s.fields["y"] = ys?[i]
                s.fields["z"] = zs?[i]
                body(s)
            }
        }
        let (warnings, notes) = messages.withLock { $0 }
        return (warnings, notes, source.recordingSummary, stream)
    }

    /// gen-accel style `FILE.steps.json`: `[{"stepPath": …, "start": seconds}, …]`.
    static func sidecarSteps(_ path: String) -> [(String, Double)] {
        guard let data = FileManager.default.contents(atPath: path + ".steps.json"),
            case .array(let items)? = try? JSONParser.parse(Array(data))
        else { return [] }
        return items.compactMap { item in
            guard case .object(let o) = item, let p = o["stepPath"]?.stringValue, let t = o["start"]?.doubleValue else {
                return nil
            }
            return (p, t)
        }
    }
}

/// A uniform sample of at most `capacity` values (Vitter's algorithm R), for a median in
/// bounded memory.
struct Reservoir {
    let capacity: Int
    private var values: [Double] = []
    private var seen = 0
    private var rng: UInt64 = 0x9E37_79B9_7F4A_7C15

    init(capacity: Int) { self.capacity = capacity }

    mutating func add(_ v: Double) {
        seen += 1
        if values.count < capacity {
            values.append(v)
            return
        }
        rng ^= rng << 13
        rng ^= rng >> 7
        rng ^= rng << 17
        let j = Int(rng % UInt64(seen))
        if j < capacity { values[j] = v }
    }

    var median: Double? {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        return sorted[sorted.count / 2]
    }
}
