import DAQCore

/// Ignores a code read again within `window` seconds of its last reading: the session of the
/// repeat (its `scan.start`, `scan.data` and `scan.stop`) is dropped whole and counted, so the
/// sessions that pass keep their start, outcome, stop order.
public final class DedupTransform: TransformPlugin {
    public struct Configuration: PluginConfiguration {
        @Setting("A code seen again sooner than this after its last reading is a repeat.") var window = Seconds(2)
        @Setting("The field holding the code.") var field = "code"

        public init() {}

        public func validate() throws {
            if !(window.value > 0) { throw $window.issue("must be more than 0 s") }
        }
    }

    public static let typeName = "barcode.dedup"
    public static let summary =
        "Drops a code read again within a window (its whole scan session), counting the repeats."
    public static let output = StreamOutput(.input, note: "the input's samples as they came, repeats' sessions dropped")

    private let window: Double
    private let field: String
    /// When each code was last read; codes older than the window are forgotten.
    private var lastSeen: [String: Double] = [:]
    /// `scan.start` samples waiting for their session's outcome.
    private var heldStarts: [Int64: Sample] = [:]
    /// Sessions whose outcome was a repeat: their `scan.stop` is dropped too.
    private var droppedSessions: Set<Int64> = []
    private var repeats = 0

    public init(configuration: Configuration, context: PluginContext) throws {
        window = configuration.window.value
        field = configuration.field
    }

    public func process(_ batch: inout Batch, context: StageContext) throws {
        var out = Batch(stream: batch.stream, capacity: batch.count)
        for i in 0..<batch.count {
            let s = batch[i]
            let event = s["event"]?.stringValue
            let session = s["session"]?.intValue ?? 0
            switch event {
            case "scan.start":
                heldStarts[session] = s
            case "scan.stop" where droppedSessions.contains(session):
                droppedSessions.remove(session)
            case "scan.data", nil:
                guard let code = s[field]?.stringValue else {
                    release(session, into: &out)
                    out.append(s)
                    continue
                }
                if let seen = lastSeen[code], s.uptime - seen < window {
                    repeats += 1
                    lastSeen[code] = s.uptime
                    if event != nil {
                        heldStarts[session] = nil
                        droppedSessions.insert(session)
                    }
                    continue
                }
                lastSeen[code] = s.uptime
                release(session, into: &out)
                out.append(s)
            default:
                release(session, into: &out)
                out.append(s)
            }
        }
        if lastSeen.count > 10_000, let now = batch.uptimes.last {
            lastSeen = lastSeen.filter { now - $0.value < window }
        }
        batch = out
    }

    private func release(_ session: Int64, into out: inout Batch) {
        if let start = heldStarts.removeValue(forKey: session) { out.append(start) }
    }

    public func finish(context: StageContext) throws -> Batch {
        if repeats > 0 { context.notice("ignored \(repeats) repeated code(s) within \(window) s") }
        var out = Batch(stream: context.name)
        for (_, s) in heldStarts.sorted(by: { $0.key < $1.key }) { out.append(s) }
        return out
    }
}
