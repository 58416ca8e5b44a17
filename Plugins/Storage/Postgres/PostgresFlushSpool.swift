import DAQCore

/// A `postgres` sink's `spool: DIR`: the ``MessageSpool`` the `mqtt` sink uses, holding sealed
/// flushes (``PostgresSpooledFlush``) until they are committed, so that what a killed run or
/// an outage left goes in at the next run's start.
///
/// # Thread safety
/// A value confined to its sink's stage queue; the spool behind it has a lock of its own.
struct PostgresFlushSpool {
    /// The directory, as the pipeline resolved it.
    let path: String
    private let spool: MessageSpool
    /// The server the flushes are sealed for (``PostgresTarget/display``).
    private let server: String
    /// Set once the disk refused a flush: nothing more is appended, so a record torn by that
    /// failed write stays the segment's last, which reading ignores as cut short.
    private(set) var refused = false

    /// Opens the spool in `path` for a sink writing to `server`.
    /// - Returns: the spool and the flushes earlier runs left in it, oldest first.
    /// - Throws: ``SpoolError`` when the directory cannot be used, a record cannot be read, or a
    ///   flush was sealed for another server (whose `daq_flushes` this one does not have); the
    ///   directory is then released.
    static func open(_ path: String, server: String) throws -> (PostgresFlushSpool, [PostgresFlush]) {
        let (spool, recovered) = try MessageSpool.open(directory: path)
        do {
            let flushes = try recovered.map { message in
                let (flush, sealedFor) = try PostgresSpooledFlush.flush(from: message, spool: path)
                guard sealedFor == server else {
                    throw SpoolError(
                        "the spool \(path) holds flushes for \(sealedFor), and this sink writes to \(server): give it a spool of its own"
                    )
                }
                return flush
            }
            return (PostgresFlushSpool(path: path, spool: spool, server: server), flushes)
        } catch {
            spool.close()
            throw error
        }
    }

    private init(path: String, spool: MessageSpool, server: String) {
        (self.path, self.spool, self.server) = (path, spool, server)
    }

    /// Samples (rows) held in the spool now.
    var spooledSamples: Int { spool.spooledSamples }

    /// Writes `flush` to the spool and records where in `flush.spooled`.
    /// - Returns: the disk's refusal, the first time it refuses (later flushes are not written).
    mutating func keep(_ flush: inout PostgresFlush) -> SpoolError? {
        guard !refused else { return nil }
        let sequence = spool.reserve(1)
        var record: [UInt8] = []
        PostgresSpooledFlush.append(flush, server: server, spoolSequence: sequence, to: &record)
        do {
            try spool.append(record, sequences: [(sequence, flush.rows)])
            flush.spooled = sequence
            return nil
        } catch {
            refused = true
            return error as? SpoolError ?? SpoolError("cannot write to the spool \(path): \(error)")
        }
    }

    /// Lets a settled flush go (committed now or before, or refused for good).
    func settle(_ flush: PostgresFlush) {
        guard let sequence = flush.spooled else { return }
        spool.acknowledge([sequence])
    }

    /// Releases the directory; flushes not settled stay for the next run.
    func close() {
        spool.close()
    }
}
