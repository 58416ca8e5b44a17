/// One stream of an XDF file read in order, a Samples chunk at a time, its time stamps put on
/// the recorder's clock as they are decoded: what the replay merges.
///
/// Each cursor has its own view of the file and goes forward from chunk to chunk of its stream
/// (a seek for `.xdf`, inflating past the others for `.xdf.gz`), so a replay holds one chunk per
/// stream in memory, whatever the file's length.
///
/// # Thread safety
/// Not thread-safe: the replay uses it on its stage's queue.
final class XDFStreamCursor {
    let record: XDFStreamRecord
    /// Its place among the replayed streams.
    let slot: Int
    private let input: XDFInput
    private var sync: XDFClockSync
    /// The chunks it reads: those before the first damage when the replay stops there.
    private let chunks: ArraySlice<XDFChunkSpan>
    private var nextChunk: Int
    /// The current chunk's samples, time stamps corrected, and the next one to hand out.
    private(set) var block = XDFSampleBlock()
    private(set) var next = 0
    /// The previous time stamp as recorded, for samples that carry none.
    private var lastRecorded = 0.0
    /// Samples handed out, and how many it may (pyxdf drops the extra samples of pylsl#67).
    private(set) var handed = 0
    private let limit: Int

    init(record: XDFStreamRecord, slot: Int, path: String, sync: XDFClockSync, before end: Int64?, limit: Int) throws {
        self.record = record
        self.slot = slot
        self.sync = sync
        self.limit = limit
        input = try XDFInput(path: path)
        let cut = end.map { end in record.chunks.prefix { $0.start < end } } ?? record.chunks[...]
        chunks = cut
        nextChunk = cut.startIndex
    }

    /// The corrected time of the next sample; `nil` once the stream is read.
    func head() throws -> Double? {
        while next >= block.count {
            guard handed < limit, nextChunk < chunks.endIndex else { return nil }
            try load(chunks[nextChunk])
            nextChunk += 1
        }
        return block.times[next]
    }

    /// Moves past the sample ``head()`` gave.
    func advance() {
        advance(by: 1)
    }

    /// Samples of the current chunk from ``next`` on that may still go out; call ``head()`` first.
    var available: Int { Swift.min(block.count - next, limit - handed) }

    /// Moves past `n` samples of the current chunk (at most ``available``).
    func advance(by n: Int) {
        next += n
        handed += n
        if handed == limit { next = block.count }
    }

    private func load(_ span: XDFChunkSpan) throws {
        guard try input.seek(to: span.content), let content = try input.take(span.length) else {
            throw XDFFileError(
                path: input.path,
                problem: "chunk \(span.number) at byte \(span.start) is gone: the file changed while it was replayed")
        }
        block.removeAll()
        next = 0
        do {
            _ = try XDFSampleDecoder.decode(content, info: record.info, last: &lastRecorded, into: &block, keep: true)
        } catch {
            throw XDFDamage(
                path: input.path, chunk: span.number, offset: span.start, problem: "Samples chunk: \(error)")
        }
        for i in 0..<block.times.count { block.times[i] = sync.map(block.times[i]) }
    }
}
