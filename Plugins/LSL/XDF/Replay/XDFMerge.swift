import DAQCore

/// Merges the replayed streams' samples in time order into batches: the stream whose next
/// sample is earliest goes first (the earlier stream in the file on a tie), so the order is the
/// same whatever the batch size.
///
/// # Thread safety
/// Not thread-safe: the replay uses it on its stage's queue.
final class XDFMerge {
    private let cursors: [XDFStreamCursor]
    private let plan: XDFFieldPlan
    /// Added to a synchronised XDF time to give seconds since 1970.
    private let origin: Double
    /// The damage the replay stops at, thrown once every sample before it is out.
    private let failure: XDFDamage?
    /// The first sample's timestamp: run-clock time counts from it.
    private var firstStamp: Double?
    private var lastUptime = 0.0
    private(set) var emitted: [Int]

    init(cursors: [XDFStreamCursor], plan: XDFFieldPlan, origin: Double, failure: XDFDamage?) {
        self.cursors = cursors
        self.plan = plan
        self.origin = origin
        self.failure = failure
        emitted = Array(repeating: 0, count: cursors.count)
    }

    /// Appends up to `limit` samples.
    func read(into batch: inout Batch, limit: Int) throws -> SourceStatus {
        var columns = XDFBatchColumns(fields: plan.fields, capacity: Swift.min(limit, 4096))
        var uptimes: [Double] = []
        var stamps: [Double] = []
        var kinds: [SampleKind] = []
        var anyEvent = false
        var heads: [Double?] = try cursors.map { try $0.head() }
        while stamps.count < limit {
            var pick = -1
            var best = Double.infinity
            for (k, head) in heads.enumerated() {
                guard let t = head else { continue }
                if pick < 0 || t < best {
                    pick = k
                    best = t
                }
            }
            guard pick >= 0 else { break }
            let cursor = cursors[pick]
            let stamp = best + origin
            if firstStamp == nil { firstStamp = stamp }
            let uptime = Swift.max(lastUptime, stamp - firstStamp!)
            lastUptime = uptime
            uptimes.append(uptime)
            stamps.append(stamp)
            let info = cursor.record.info
            let isText = info.format == .string
            kinds.append(isText ? .event : .data)
            anyEvent = anyEvent || isText
            columns.addRow(stream: info.name)
            let places = plan.places[pick]
            let base = cursor.next * info.channelCount
            let block = cursor.block
            switch info.format {
            case .float32, .double64:
                for c in 0..<info.channelCount { columns.set(double: block.doubles[base + c], field: places[c]) }
            case .string:
                for c in 0..<info.channelCount { columns.set(string: block.strings[base + c], field: places[c]) }
            default:
                for c in 0..<info.channelCount { columns.set(int: block.ints[base + c], field: places[c]) }
            }
            emitted[pick] += 1
            cursor.advance()
            heads[pick] = try cursor.head()
        }
        if !stamps.isEmpty {
            batch.appendRows(uptimes: uptimes, timestamps: stamps, kinds: anyEvent ? kinds : nil)
            for column in columns.columns() { batch.setColumn(column) }
        }
        return heads.contains { $0 != nil } ? .more : .finished
    }

    /// Throws the damage the replay stopped at, once every sample before it went out.
    func finish() throws {
        if let failure { throw failure }
    }
}
