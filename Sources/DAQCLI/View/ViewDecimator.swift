import DAQCore

/// The decimated copy of one stream the view plots: per time bucket, each numeric field's least
/// and greatest value, as plotting tools draw a pixel column.
///
/// Samples land in buckets of ``bucketSeconds`` on the run clock; the buckets finished since the
/// last frame are merged pairwise (min of mins, max of maxes) until at most ``maxBucketsPerFrame``
/// remain, so a frame stays small however fast the run goes (a virtual-clock run covers hours of
/// recorded time a second). Nothing here touches the pipeline: it works on the tap's copy.
struct ViewDecimator {
    /// Run-clock seconds a bucket spans before merging.
    static let bucketSeconds = 0.05
    /// The most buckets one frame carries per stream.
    static let maxBucketsPerFrame = 32

    /// One bucket: the first and last sample times, the step of its last sample, and per field
    /// (in ``fields`` order) the least and greatest value, `nil` where the field had none.
    struct Bucket: Equatable {
        var index: Int64
        var first: Double
        var last: Double
        var step: String
        var min: [Double?]
        var max: [Double?]

        mutating func merge(_ other: Bucket) {
            first = Swift.min(first, other.first)
            last = Swift.max(last, other.last)
            step = other.step
            for i in 0..<Swift.max(min.count, other.min.count) {
                let a = i < min.count ? min[i] : nil
                let b = i < other.min.count ? other.min[i] : nil
                let c = i < max.count ? max[i] : nil
                let d = i < other.max.count ? other.max[i] : nil
                if i >= min.count {
                    min.append(nil)
                    max.append(nil)
                }
                min[i] = a.map { x in b.map { Swift.min(x, $0) } ?? x } ?? b
                max[i] = c.map { x in d.map { Swift.max(x, $0) } ?? x } ?? d
            }
        }
    }

    /// The numeric fields in plotting order: the descriptor's first, then any seen later.
    private(set) var fields: [String] = []
    private var current: Bucket?
    private var finished: [Bucket] = []

    /// Takes the descriptor's numeric fields, in its order, ahead of any seen so far.
    mutating func describe(_ descriptor: StreamDescriptor) {
        for f in descriptor.fields where [.double, .int, .bool].contains(f.type) && !fields.contains(f.name) {
            fields.append(f.name)
        }
    }

    /// Adds one data sample's numeric values; non-finite values are left out (drawn as a gap).
    mutating func add(uptime: Double, step: String, values: Fields) {
        guard uptime.isFinite else { return }
        // A hair added, so that a sample on a bucket's edge (0.15 s) is not put in the bucket
        // before it by the rounding of its decimal time.
        guard let index = Int64(exactly: (uptime / Self.bucketSeconds + 1e-9).rounded(.down)) else { return }
        if let c = current, c.index != index {
            finished.append(c)
            current = nil
        }
        var bucket =
            current
            ?? Bucket(
                index: index, first: uptime, last: uptime, step: step, min: Array(repeating: nil, count: fields.count),
                max: Array(repeating: nil, count: fields.count))
        bucket.last = uptime
        bucket.step = step
        for (name, value) in zip(values.keys, values.values) {
            let number: Double
            switch value {
            case .double(let d) where d.isFinite: number = d
            case .int(let i): number = Double(i)
            case .bool(let b): number = b ? 1 : 0
            default: continue
            }
            guard let i = fields.firstIndex(of: name) ?? appendField(name) else { continue }
            while bucket.min.count <= i {
                bucket.min.append(nil)
                bucket.max.append(nil)
            }
            bucket.min[i] = bucket.min[i].map { Swift.min($0, number) } ?? number
            bucket.max[i] = bucket.max[i].map { Swift.max($0, number) } ?? number
        }
        current = bucket
    }

    private mutating func appendField(_ name: String) -> Int? {
        // A stream with hundreds of numeric fields is not a strip chart: the first 64 are plotted.
        guard fields.count < 64 else { return nil }
        fields.append(name)
        return fields.count - 1
    }

    /// The buckets finished since the last call (and the current one when `all`), merged down to
    /// at most `limit`.
    mutating func take(all: Bool = false, limit: Int = maxBucketsPerFrame) -> [Bucket] {
        if all, let c = current {
            finished.append(c)
            current = nil
        }
        var out = finished
        finished.removeAll(keepingCapacity: true)
        while out.count > max(limit, 1) {
            var merged: [Bucket] = []
            merged.reserveCapacity(out.count / 2 + 1)
            var i = 0
            while i < out.count {
                var b = out[i]
                if i + 1 < out.count { b.merge(out[i + 1]) }
                merged.append(b)
                i += 2
            }
            out = merged
        }
        return out
    }
}
