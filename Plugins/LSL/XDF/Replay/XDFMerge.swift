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
        if cursors.count == 1 { return try readOne(into: &batch, limit: limit) }
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

    /// One stream: nothing to merge, so its chunks are copied into dense columns run by run.
    private func readOne(into batch: inout Batch, limit: Int) throws -> SourceStatus {
        let cursor = cursors[0]
        let info = cursor.record.info
        let channels = info.channelCount
        let places = plan.places[0]
        var uptimes: [Double] = []
        var stamps: [Double] = []
        var doubles = [[Double]](repeating: [], count: info.format.fieldType == .double ? channels : 0)
        var ints = [[Int64]](repeating: [], count: info.format.fieldType == .int ? channels : 0)
        var strings = [[String]](repeating: [], count: info.format == .string ? channels : 0)
        while stamps.count < limit, try cursor.head() != nil {
            let n = Swift.min(limit - stamps.count, cursor.available)
            let block = cursor.block
            let from = cursor.next
            for i in from..<(from + n) {
                let stamp = block.times[i] + origin
                if firstStamp == nil { firstStamp = stamp }
                lastUptime = Swift.max(lastUptime, stamp - firstStamp!)
                uptimes.append(lastUptime)
                stamps.append(stamp)
            }
            for c in 0..<channels {
                switch info.format {
                case .float32, .double64:
                    for i in from..<(from + n) { doubles[c].append(block.doubles[i * channels + c]) }
                case .string:
                    for i in from..<(from + n) { strings[c].append(block.strings[i * channels + c]) }
                default:
                    for i in from..<(from + n) { ints[c].append(block.ints[i * channels + c]) }
                }
            }
            emitted[0] += n
            cursor.advance(by: n)
        }
        if !stamps.isEmpty {
            let kinds = info.format == .string ? [SampleKind](repeating: .event, count: stamps.count) : nil
            batch.appendRows(uptimes: uptimes, timestamps: stamps, kinds: kinds)
            batch.setColumn(
                Column(name: XDFFieldPlan.streamField, strings: Array(repeating: info.name, count: stamps.count)))
            for c in 0..<channels {
                let name = plan.fields[places[c]].name
                switch info.format {
                case .float32, .double64: batch.setColumn(Column(name: name, doubles: doubles[c]))
                case .string: batch.setColumn(Column(name: name, strings: strings[c]))
                default: batch.setColumn(Column(name: name, ints: ints[c]))
                }
            }
        }
        return try cursor.head() != nil ? .more : .finished
    }

    /// Throws the damage the replay stopped at, once every sample before it went out.
    func finish() throws {
        if let failure { throw failure }
    }
}
