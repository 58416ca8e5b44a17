import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Messages a sink accepted but its receiver has not yet acknowledged, kept on disk so a
/// restart of `daq` loses none of them: the `mqtt` sink's messages, the `postgres` sink's flushes.
///
/// The directory holds segments: `NNNNNNNNNNNN.spool`, records appended in order, and beside
/// each `NNNNNNNNNNNN.acks`, the sequence numbers acknowledged so far (8 bytes each). A
/// segment is sealed when it passes ``segmentBytes`` or when the spool is opened again; a
/// sealed segment whose every message is acknowledged is deleted. Opening the spool reads
/// every segment and returns the unacknowledged messages, oldest first, to be sent before
/// anything new. A record cut short by a crash (its length runs past the end of the file) is
/// ignored: its `write` never returned, so it was never accepted.
///
/// A message whose acknowledgement was not yet written when `daq` stopped is sent again; the
/// sink makes that harmless (an MQTT payload carries the same message id, a `postgres` flush
/// its run id and number), so the receiver drops the copy.
///
/// Record: `u32 length of the rest`, `u64 sequence`, `u16 options`, `u32 samples`,
/// `u16 key length`, key, payload (all big-endian). The key and the options mean what the sink
/// says: for `mqtt` the topic, and QoS and retain in the options' two bytes.
///
/// # Thread safety
/// All state sits behind one `Mutex`: the sink appends from its stage queue, acknowledgements
/// arrive on the receiver's thread (the MQTT client's event loop, a postgres task).
public final class MessageSpool: Sendable {
    /// One spooled message.
    public struct Message: Sendable {
        /// Its number in the spool, from ``MessageSpool/reserve(_:)``.
        public var sequence: UInt64
        /// Where it goes, as its sink names it (an MQTT topic, a table).
        public var key: String
        /// Two bytes the sink gives meaning to.
        public var options: UInt16
        /// Samples it carries, which count as spooled until it is acknowledged.
        public var samples: Int
        /// The bytes to send.
        public var payload: [UInt8]

        /// A message as ``SpoolRecords/append(sequence:key:options:samples:payload:to:)`` wrote it.
        public init(sequence: UInt64, key: String, options: UInt16, samples: Int, payload: [UInt8]) {
            (self.sequence, self.key, self.options, self.samples, self.payload) = (
                sequence, key, options, samples, payload
            )
        }
    }

    private struct Segment {
        var number: Int
        var first: UInt64
        var last: UInt64
        /// Unacknowledged sequence numbers → samples: memory holds only what is still pending.
        var pending: [UInt64: Int]
        var acks: FileHandle?
        var bytes: Int
    }

    private struct State {
        var segments: [Segment] = []
        var current: FileHandle?
        var nextSequence: UInt64 = 1
        var spooledSamples = 0
        /// The directory's lock, `nil` once released.
        var lock: SpoolLock?
    }

    /// The directory.
    public let directory: String
    /// The size at which a segment is sealed and a new one started.
    public let segmentBytes: Int
    private let state: Mutex<State>

    /// Opens (creating) the spool in `directory`.
    /// - Returns: the spool and the messages still unacknowledged from earlier runs, oldest first.
    /// - Throws: ``SpoolError`` when the directory cannot be used or another run holds it.
    public static func open(directory: String, segmentBytes: Int = 8 << 20) throws -> (MessageSpool, [Message]) {
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw SpoolError("cannot create the spool directory \(directory): \(error.localizedDescription)")
        }
        let lock = try SpoolLock(directory: directory)
        var state = State()
        state.lock = lock
        var opened = false
        // A segment that cannot be read leaves the directory free for the next attempt.
        defer { if !opened { lock.release() } }
        var recovered: [Message] = []
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).filter {
            $0.hasSuffix(".spool")
        }.sorted()
        for name in names {
            guard let number = Int(name.dropLast(6)) else { continue }
            let (segment, pending) = try SpoolRecords.read(directory: directory, number: number)
            state.nextSequence = max(state.nextSequence, segment.last + 1)
            guard !pending.isEmpty else {
                SpoolRecords.remove(directory: directory, number: number)
                continue
            }
            recovered.append(contentsOf: pending)
            state.spooledSamples += pending.reduce(0) { $0 + $1.samples }
            state.segments.append(
                Segment(
                    number: number, first: segment.first, last: segment.last,
                    pending: Dictionary(pending.map { ($0.sequence, $0.samples) }, uniquingKeysWith: { a, _ in a }),
                    acks: nil, bytes: Int.max))
        }
        let spool = MessageSpool(directory: directory, segmentBytes: segmentBytes, state: state)
        opened = true
        return (spool, recovered)
    }

    private init(directory: String, segmentBytes: Int, state: State) {
        self.directory = directory
        self.segmentBytes = segmentBytes
        self.state = Mutex(state)
    }

    deinit {
        close()
    }

    /// Samples held now.
    public var spooledSamples: Int { state.withLock { $0.spooledSamples } }

    /// The sequence numbers the next `count` messages will get.
    public func reserve(_ count: Int) -> UInt64 {
        state.withLock { s in
            defer { s.nextSequence += UInt64(count) }
            return s.nextSequence
        }
    }

    /// Appends messages (sequence numbers from ``reserve(_:)``, in order) with one write, so
    /// they are on disk — in the kernel's cache, surviving the process — before `write` returns.
    /// - Throws: ``SpoolError`` when the disk refuses.
    public func append(_ records: [UInt8], sequences: [(UInt64, Int)]) throws {
        guard let firstSeq = sequences.first?.0, let lastSeq = sequences.last?.0 else { return }
        try state.withLock { s in
            if s.segments.last.map({ $0.bytes >= segmentBytes }) ?? true {
                try s.current?.close()
                let number = (s.segments.last?.number ?? 0) + 1
                let path = SpoolRecords.path(directory, number, "spool")
                guard FileManager.default.createFile(atPath: path, contents: nil),
                    let handle = FileHandle(forWritingAtPath: path)
                else { throw SpoolError("cannot create \(path)") }
                s.current = handle
                s.segments.append(
                    Segment(number: number, first: firstSeq, last: firstSeq, pending: [:], acks: nil, bytes: 0))
            }
            do {
                try s.current!.write(contentsOf: records)
            } catch {
                throw SpoolError("cannot write to the spool \(directory): \(error.localizedDescription)")
            }
            let i = s.segments.count - 1
            s.segments[i].last = lastSeq
            s.segments[i].bytes += records.count
            for (seq, n) in sequences { s.segments[i].pending[seq] = n }
            s.spooledSamples += sequences.reduce(0) { $0 + $1.1 }
        }
    }

    /// Records acknowledgements; deletes sealed segments whose every message is acknowledged.
    public func acknowledge(_ sequences: [UInt64]) {
        guard !sequences.isEmpty else { return }
        state.withLock { s in
            var bySegment: [Int: [UInt64]] = [:]
            for seq in sequences {
                guard let i = s.segments.firstIndex(where: { $0.first <= seq && seq <= $0.last }) else { continue }
                bySegment[i, default: []].append(seq)
            }
            var emptied: [Int] = []
            for (i, seqs) in bySegment {
                var bytes: [UInt8] = []
                bytes.reserveCapacity(seqs.count * 8)
                for seq in seqs {
                    guard let n = s.segments[i].pending.removeValue(forKey: seq) else { continue }
                    s.spooledSamples -= n
                    withUnsafeBytes(of: seq.bigEndian) { bytes.append(contentsOf: $0) }
                }
                if s.segments[i].acks == nil {
                    s.segments[i].acks = SpoolRecords.openAcks(directory, s.segments[i].number)
                }
                try? s.segments[i].acks?.write(contentsOf: bytes)
                let sealed = i < s.segments.count - 1 || s.segments[i].bytes >= segmentBytes
                if sealed && s.segments[i].pending.isEmpty { emptied.append(i) }
            }
            for i in emptied.sorted(by: >) {
                try? s.segments[i].acks?.close()
                SpoolRecords.remove(directory: directory, number: s.segments[i].number)
                s.segments.remove(at: i)
            }
        }
    }

    /// Closes the files and releases the directory; segments still holding messages stay for
    /// the next run.
    public func close() {
        state.withLock { s in
            s.lock?.release()
            s.lock = nil
            try? s.current?.close()
            s.current = nil
            for i in s.segments.indices {
                try? s.segments[i].acks?.close()
                s.segments[i].acks = nil
                if s.segments[i].pending.isEmpty {
                    SpoolRecords.remove(directory: directory, number: s.segments[i].number)
                }
            }
        }
    }
}

/// The spool cannot be used.
public struct SpoolError: Error, CustomStringConvertible {
    /// What went wrong, naming the directory or file.
    public var description: String
    /// An error saying `d`.
    public init(_ d: String) { description = d }
}
