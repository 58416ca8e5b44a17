import DAQCore
import NIOCore

/// Turns a batch into MQTT messages: groups samples by topic (up to `batchSize` a message),
/// writes every payload into one reused byte array, and hands out slices of a single buffer,
/// so a batch costs a handful of allocations whatever its size.
///
/// Message ids are `<client id>@<run start, ms>:<sequence>`; with a spool the sequence is the
/// spool's, so a message re-sent by a later run keeps its id.
struct MessageEncoder {
    let qos: MQTTQoS
    let retain: Bool
    let batchSize: Int
    let markers: Bool
    private let clientID: String
    /// `_pipeline` and `_host`, the same in every payload.
    private let origin: [UInt8]
    private var prefix: [UInt8] = []
    private var sequence: UInt64 = 1
    private var payloads: [UInt8] = []
    private var records: [UInt8] = []
    private var idBytes: [UInt8] = []
    private var rows: [Int] = []
    private var groups: [(topic: String, from: Int, to: Int)] = []
    private let allocator = ByteBufferAllocator()

    init(clientID: String, origin: [UInt8], qos: MQTTQoS, retain: Bool, batchSize: Int, markers: Bool) {
        self.clientID = clientID
        self.origin = origin
        self.qos = qos
        self.retain = retain
        self.batchSize = batchSize
        self.markers = markers
    }

    /// Fixes the id prefix from the run's start, which makes ids unique across runs.
    mutating func startSequence(runStart: Double) {
        prefix = []
        // Only characters that need no JSON escaping, so the id is copied into payloads as is.
        for b in clientID.utf8 {
            let plain =
                (b >= 48 && b <= 57) || (b >= 65 && b <= 90) || (b >= 97 && b <= 122) || b == 45 || b == 46 || b == 95
            prefix.append(plain ? b : UInt8(ascii: "_"))
        }
        prefix.append(UInt8(ascii: "@"))
        NumberFormatting.appendInt(Int64(runStart * 1000), to: &prefix)
        prefix.append(UInt8(ascii: ":"))
    }

    /// The messages of `batch`, recorded in `spool` (when given) before they are returned.
    /// - Throws: ``SpoolError`` when the spool cannot be written.
    mutating func encode(
        _ batch: Batch, template: TopicTemplate, pipeline: String, component: String, spool: MessageSpool?
    ) throws
        -> [MQTTOutgoing]
    {
        groups.removeAll(keepingCapacity: true)
        rows.removeAll(keepingCapacity: true)
        let constant =
            template.perSample ? nil : template.render(batch, row: 0, pipeline: pipeline, component: component)
        for row in 0..<batch.count {
            if batch.kinds[row] == .marker && !markers { continue }
            let topic = constant ?? template.render(batch, row: row, pipeline: pipeline, component: component)
            rows.append(row)
            if let last = groups.last, last.to - last.from < batchSize, last.topic == topic {
                groups[groups.count - 1].to += 1
            } else {
                groups.append((topic, rows.count - 1, rows.count))
            }
        }
        guard !groups.isEmpty else { return [] }
        let first: UInt64
        if let spool {
            first = spool.reserve(groups.count)
        } else {
            first = sequence
            sequence += UInt64(groups.count)
        }
        payloads.removeAll(keepingCapacity: true)
        var ends: [Int] = []
        ends.reserveCapacity(groups.count)
        for (k, g) in groups.enumerated() {
            idBytes.removeAll(keepingCapacity: true)
            idBytes.append(contentsOf: prefix)
            NumberFormatting.appendUInt(first + UInt64(k), to: &idBytes)
            if batchSize > 1 { payloads.append(UInt8(ascii: "[")) }
            for i in g.from..<g.to {
                if i > g.from { payloads.append(UInt8(ascii: ",")) }
                SamplePayload.append(batch, row: rows[i], messageID: idBytes, origin: origin, to: &payloads)
            }
            if batchSize > 1 { payloads.append(UInt8(ascii: "]")) }
            ends.append(payloads.count)
        }
        let buffer = allocator.buffer(bytes: payloads)
        var messages: [MQTTOutgoing] = []
        messages.reserveCapacity(groups.count)
        var start = 0
        for (k, g) in groups.enumerated() {
            messages.append(
                MQTTOutgoing(
                    token: first + UInt64(k), topic: g.topic,
                    payload: buffer.getSlice(at: start, length: ends[k] - start)!, qos: qos,
                    retain: retain, samples: g.to - g.from))
            start = ends[k]
        }
        if let spool {
            records.removeAll(keepingCapacity: true)
            payloads.withUnsafeBytes { all in
                var start = 0
                for (k, m) in messages.enumerated() {
                    SpoolRecords.append(
                        sequence: m.token, key: m.topic, options: MQTTSpoolOptions.encode(qos: qos, retain: retain),
                        samples: m.samples,
                        payload: UnsafeRawBufferPointer(rebasing: all[start..<ends[k]]), to: &records)
                    start = ends[k]
                }
            }
            try spool.append(records, sequences: messages.map { ($0.token, $0.samples) })
        }
        return messages
    }
}
