import DAQCore

#if canImport(Glibc)
    import Glibc
#endif

/// The outlets of one input stream: its data (channels per ``LSLOutletLayout``) and a companion
/// string stream (`<name>.markers`) for its step markers and events.
///
/// Samples keep their own time: the first sample's `timestamp` is put at `lsl_local_clock()`
/// of the first push, and every later one at the same distance from it as in the stream, so
/// a replayed recording reaches LSL with its recorded spacing. Batches are pushed whole
/// (`lsl_push_chunk_*tnp`, a timestamp per sample) from buffers reused from batch to batch.
///
/// # Thread safety
/// Used on the sink's stage queue only.
final class LSLOutlet {
    let layout: LSLOutletLayout
    private let api: LSLFunctions
    private var data: OpaquePointer?
    private var markers: OpaquePointer?
    /// LSL time minus the stream's timestamp, fixed by the first sample pushed.
    private var shift: Double?
    private var doubles: [Double] = []
    private var ints: [Int64] = []
    private var stamps: [Double] = []
    private var markerStamps: [Double] = []
    /// Whether each outlet had a consumer at the last look.
    private(set) var consumers: (data: Bool, markers: Bool) = (false, false)

    /// Creates both outlets (the data outlet only when there are channels).
    /// - Throws: ``LSLSinkError`` when liblsl refuses one.
    init(
        layout: LSLOutletLayout, api: LSLFunctions, maxBuffered: Int32, pipeline: String, component: String,
        stream: String
    )
        throws
    {
        self.layout = layout
        self.api = api
        if !layout.channels.isEmpty {
            guard let info = layout.dataInfo(api: api, pipeline: pipeline, component: component, stream: stream) else {
                throw LSLSinkError(
                    "liblsl refused the stream info for \(layout.name): \(layout.channels.count) channels")
            }
            data = api.createOutlet(info, 0, maxBuffered)
            api.destroyStreamInfo(info)
            if data == nil { throw LSLSinkError("liblsl could not open an outlet for \(layout.name)") }
        }
        guard let info = layout.markerInfo(api: api, pipeline: pipeline, component: component, stream: stream) else {
            throw LSLSinkError("liblsl refused the stream info for \(layout.name).markers")
        }
        markers = api.createOutlet(info, 0, maxBuffered)
        api.destroyStreamInfo(info)
        if markers == nil { throw LSLSinkError("liblsl could not open an outlet for \(layout.name).markers") }
    }

    /// Pushes `batch`: data rows to the data outlet, markers and events to the marker outlet.
    /// Returns how many samples went out.
    /// - Throws: ``LSLSinkError`` with liblsl's error code.
    func push(_ batch: Batch) throws -> Int {
        let n = batch.count
        guard n > 0 else { return 0 }
        let shift = self.shift ?? (api.localClock() - batch.timestamps[0])
        self.shift = shift
        let width = layout.channels.count
        let columns = layout.channels.map { batch.columnIndex($0.name) }
        stamps.removeAll(keepingCapacity: true)
        doubles.removeAll(keepingCapacity: true)
        ints.removeAll(keepingCapacity: true)
        markerStamps.removeAll(keepingCapacity: true)
        var texts: [String] = []
        for i in 0..<n {
            let t = batch.timestamps[i] + shift
            if batch.kinds[i] != .data {
                markerStamps.append(t)
                texts.append(Self.markerText(batch, at: i))
                continue
            }
            guard width > 0 else { continue }
            stamps.append(t)
            for c in columns {
                let value = c.map { batch.columns[$0][i] } ?? .null
                if layout.format.isInteger { ints.append(Self.int(value)) } else { doubles.append(Self.double(value)) }
            }
        }
        var sent = 0
        if let data, !stamps.isEmpty {
            let count = UInt(stamps.count * width)
            let ec =
                layout.format.isInteger
                ? api.pushChunkInt64(data, ints, count, stamps, 1)
                : api.pushChunkDouble(data, doubles, count, stamps, 1)
            if ec != 0 { throw LSLSinkError("liblsl refused a chunk for \(layout.name) (error \(ec))") }
            sent += stamps.count
        }
        if let markers, !texts.isEmpty {
            let ec = Self.withCStrings(texts) { api.pushChunkString(markers, $0, UInt(texts.count), markerStamps, 1) }
            if ec != 0 { throw LSLSinkError("liblsl refused markers for \(layout.name).markers (error \(ec))") }
            sent += texts.count
        }
        return sent
    }

    /// Looks whether each outlet has a consumer; returns the changes since the last look.
    func lookAtConsumers() -> [(outlet: String, present: Bool)] {
        var changes: [(String, Bool)] = []
        if let data {
            let now = api.haveConsumers(data) != 0
            if now != consumers.data { changes.append((layout.name, now)) }
            consumers.data = now
        }
        if let markers {
            let now = api.haveConsumers(markers) != 0
            if now != consumers.markers { changes.append((layout.name + ".markers", now)) }
            consumers.markers = now
        }
        return changes
    }

    /// Whether every outlet has a consumer.
    var allConsumed: Bool {
        (data == nil || consumers.data) && (markers == nil || consumers.markers)
    }

    /// Gives the outlets up to be destroyed off the stage's queue.
    func giveUp() -> [LSLHandle] {
        defer {
            data = nil
            markers = nil
        }
        return [data, markers].compactMap { $0.map { LSLHandle(raw: $0, destroy: api.destroyOutlet) } }
    }

    /// A marker's text (`step walk/outbound`, `start`), or an event's: its `marker` field, else its fields as JSON.
    static func markerText(_ batch: Batch, at i: Int) -> String {
        let sample = batch[i]
        if batch.kinds[i] == .marker {
            let what = sample.fields["marker"]?.stringValue ?? "marker"
            return sample.stepPath.isEmpty ? what : "\(what) \(sample.stepPath)"
        }
        if case .string(let text)? = sample.fields["marker"] { return text }
        var bytes: [UInt8] = []
        JSONEncoding.append(.object(sample.fields), to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func double(_ value: Value) -> Double {
        switch value {
        case .double(let d): return d
        case .int(let i): return Double(i)
        case .bool(let b): return b ? 1 : 0
        default: return .nan
        }
    }

    private static func int(_ value: Value) -> Int64 {
        switch value {
        case .int(let i): return i
        case .double(let d) where d.isFinite && abs(d) < 9.2e18: return Int64(d.rounded())
        case .bool(let b): return b ? 1 : 0
        default: return 0
        }
    }

    /// Calls `body` with the texts as C strings that live through the call.
    private static func withCStrings<R>(_ texts: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>) -> R) -> R {
        let copies = texts.map { strdup($0) }
        defer { for p in copies { free(p) } }
        let pointers = copies.map { UnsafePointer($0) }
        return pointers.withUnsafeBufferPointer { body($0.baseAddress!) }
    }
}
