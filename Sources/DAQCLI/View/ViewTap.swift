import DAQCore
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// One component's tap, read on its own thread: parses the control socket's JSON lines and
/// turns them into the view's messages.
///
/// The control server already thins the tap to ``rate`` samples a second and drops whole
/// batches rather than wait for a reader (``TapHub``), so reading here, however slowly, never
/// reaches the pipeline.
struct ViewTap {
    /// Samples a second asked of each component's tap: a 1 kHz stream arrives whole; a faster one
    /// is thinned evenly by the tap before it is decimated here.
    static let rate = 2000
    /// Wall seconds between two `data` messages of a stream.
    static let frameInterval = 0.25
    /// Wall seconds between two `data` messages of a stream whose samples go faster than twice
    /// real time: the page then draws its charts once a second, with the stats (see the page's
    /// `onStats`), so more frames would only cost the browser events it does not draw.
    static let fastFrameInterval = 1.0

    let component: String
    let hub: ViewHub
    let descriptors: ViewDescriptors
    /// Whether this tap reports step changes to the log (the first component only, so a
    /// change is logged once, not once per stream).
    let logsSteps: Bool
    /// The hub's generation the feed started in (see ``ViewHub/reset(title:)``).
    let generation: Int

    /// The control command: the component's name as a glob matching only itself.
    var command: String {
        let escaped = component.map { "*?[]\\".contains($0) ? "\\\($0)" : String($0) }.joined()
        return "tap \(escaped) \(Self.rate)"
    }

    /// Reads from `fd` until the run closes the connection or `fd` is shut down.
    func read(fd: Int32) {
        guard UnixSocket.write(fd, Array((command + "\n").utf8)) else { return }
        var decimators: [String: ViewDecimator] = [:]
        var lastFrame = DispatchTime.now().uptimeNanoseconds
        var interval = Self.frameInterval
        // The latest sample time seen, and what it was at the last frame: the stream's pace.
        var latest = -Double.infinity
        var latestAtFrame = -Double.infinity
        var lastStep: String?
        var buffer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        reading: while true {
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress!, $0.count, 0) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break reading }
            buffer.append(contentsOf: chunk[..<n])
            var start = 0
            while let nl = buffer[start...].firstIndex(of: 10) {
                handle(buffer[start..<nl], decimators: &decimators, lastStep: &lastStep, latest: &latest)
                start = nl + 1
            }
            buffer.removeFirst(start)
            // One oversized line (a huge object field) is skipped, not buffered without bound.
            if buffer.count > 1 << 22 { buffer.removeAll() }
            let now = DispatchTime.now().uptimeNanoseconds
            let elapsed = Double(now - lastFrame) / 1e9
            if elapsed >= interval {
                // `latest` only grows, so a finite mark means both are.
                if latestAtFrame.isFinite {
                    interval = (latest - latestAtFrame) / elapsed > 2 ? Self.fastFrameInterval : Self.frameInterval
                }
                latestAtFrame = latest
                lastFrame = now
                // A fast stream's one frame a second carries as many buckets as four would.
                flush(
                    &decimators, all: false,
                    limit: ViewDecimator.maxBucketsPerFrame * Int(interval / Self.frameInterval))
            }
        }
        flush(&decimators, all: true)
    }

    private func flush(
        _ decimators: inout [String: ViewDecimator], all: Bool, limit: Int = ViewDecimator.maxBucketsPerFrame
    ) {
        for name in decimators.keys.sorted() {
            let buckets = decimators[name]!.take(all: all, limit: limit)
            guard !buckets.isEmpty else { continue }
            hub.publish(
                history: ViewFrame.data(stream: name, fields: decimators[name]!.fields, buckets: buckets),
                generation: generation)
        }
    }

    private func handle(
        _ line: ArraySlice<UInt8>, decimators: inout [String: ViewDecimator], lastStep: inout String?,
        latest: inout Double
    ) {
        guard case .object(let f)? = try? JSONParser.parse(line, allowNonFinite: true) else { return }
        if let tap = f["tap"]?.stringValue {
            if tap == "descriptor", let stream = f["stream"]?.stringValue, let json = f["descriptor"],
                let d = try? StreamDescriptor(json: json)
            {
                decimators[stream, default: ViewDecimator()].describe(d)
                descriptors.set(stream, d)
            } else if tap == "components" {
                descriptors.countTap()
            } else if tap == "skipped", let n = f["samples"]?.intValue {
                descriptors.countSkipped(Int(n))
            }
            return
        }
        guard let stream = f["stream"]?.stringValue, let uptime = f["uptime"]?.doubleValue else { return }
        if uptime > latest { latest = uptime }
        let step = f["stepPath"]?.stringValue ?? ""
        var values = Fields()
        for (k, v) in zip(f.keys, f.values) where !SampleJSON.metadataKeys.contains(k) { values[k] = v }
        if logsSteps, step != lastStep {
            if lastStep != nil {
                hub.publish(
                    log: ViewFrame.log(level: "info", text: "step: \(step.isEmpty ? "(none)" : step)", t: uptime))
            }
            lastStep = step
        }
        switch f["kind"]?.stringValue {
        case "marker"?:
            hub.publish(
                history: ViewFrame.mark(stream: stream, t: uptime, kind: "marker", text: step), generation: generation)
        case "event"?:
            let text = zip(values.keys, values.values).map { "\($0)=\(Self.text($1))" }.joined(separator: " ")
            hub.publish(
                history: ViewFrame.mark(stream: stream, t: uptime, kind: "event", text: text), generation: generation)
            hub.publish(
                log: ViewFrame.log(level: "info", text: "\(stream): event \(text)", t: uptime), generation: generation)
        default:
            decimators[stream, default: ViewDecimator()].add(uptime: uptime, step: step, values: values)
        }
    }

    private static func text(_ v: Value) -> String {
        if let s = v.stringValue { return s }
        var out: [UInt8] = []
        JSONEncoding.append(v, to: &out)
        return String(decoding: out, as: UTF8.self)
    }
}

/// The streams' descriptors as the taps learn them, and the samples the taps thinned out.
///
/// # Thread safety
/// Behind one `Mutex`: every tap thread writes, the stats thread reads once a second.
final class ViewDescriptors: Sendable {
    private struct State {
        var order: [String] = []
        var json: [String: [UInt8]] = [:]
        var skipped = 0
        var taps = 0
    }
    private let state = Mutex(State())

    init() {}

    func set(_ stream: String, _ d: StreamDescriptor) {
        var bytes: [UInt8] = []
        JSONEncoding.append(.object(d.jsonFields), to: &bytes)
        state.withLock { s in
            if s.json[stream] == nil { s.order.append(stream) }
            s.json[stream] = bytes
        }
    }

    func countSkipped(_ n: Int) { state.withLock { $0.skipped += n } }

    /// Counts a tap the run has hooked (its first line came).
    func countTap() { state.withLock { $0.taps += 1 } }

    /// `{"NAME":{descriptor},…}`, the samples thinned out so far and the taps hooked.
    func snapshot() -> (json: [UInt8], skipped: Int, taps: Int) {
        state.withLock { s in
            var out: [UInt8] = [UInt8(ascii: "{")]
            for (i, name) in s.order.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                JSONEncoding.appendString(name, to: &out)
                out.append(UInt8(ascii: ":"))
                out.append(contentsOf: s.json[name]!)
            }
            out.append(UInt8(ascii: "}"))
            return (out, s.skipped, s.taps)
        }
    }
}
