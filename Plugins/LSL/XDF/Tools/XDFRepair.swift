import DAQCore
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Finishes an XDF file a recorder left unfinished (daq's `logger.xdf` or LabRecorder killed
/// mid-way): a chunk cut short at the end is dropped, and each stream without a StreamFooter
/// gets one with its first and last time stamp, sample count and clock offsets, counted from
/// the file. What `daq repair FILE.xdf` does.
///
/// The original is kept as `FILE.orig` (a hard link: no extra room) and the repaired file is
/// written beside and renamed into place, so a crash while repairing loses nothing. A complete
/// file is left untouched.
public enum XDFRepair {
    /// What repairing a file did.
    public struct Outcome: Sendable, CustomStringConvertible {
        public var path: String
        /// Whether the file was changed.
        public var changed: Bool
        /// Streams that got a footer.
        public var footersAdded: [String]
        /// Bytes of a chunk cut short at the end, dropped.
        public var bytesDropped: Int64
        /// Samples in the file, all streams.
        public var samples: Int
        /// Where the original went.
        public var backupPath: String?

        public var description: String {
            guard changed else { return "\(path): already complete (\(samples) samples); nothing changed" }
            var what = "\(path): repaired xdf file: \(samples) samples"
            if !footersAdded.isEmpty {
                what += ", added footers for \(footersAdded.map { "'\($0)'" }.joined(separator: ", "))"
            }
            if bytesDropped > 0 { what += ", dropped \(bytesDropped) bytes of a chunk cut short" }
            if let backupPath { what += "; original saved as \(backupPath)" }
            return what
        }
    }

    /// Whether `path` names an XDF file, by its name.
    public static func isXDF(_ path: String) -> Bool { path.hasSuffix(".xdf") || path.hasSuffix(".xdf.gz") }

    /// Repairs the file at `path`.
    /// - Throws: ``XDFFileError`` naming the file: unreadable, not XDF, compressed, or not writable.
    public static func repairFile(atPath path: String) throws -> Outcome {
        let index = try XDFIndex(path: path)
        if index.isCompressed {
            throw XDFFileError(
                path: path, problem: "a compressed file cannot be repaired in place; decompress it first")
        }
        let samples = index.streams.reduce(0) { $0 + $1.sampleCount }
        let missing = index.streamsWithoutFooter
        let dropped = index.contentLength - index.wholeEnd
        guard !missing.isEmpty || dropped > 0 else {
            return Outcome(path: path, changed: false, footersAdded: [], bytesDropped: 0, samples: samples)
        }
        var tail: [UInt8] = []
        for record in missing {
            XDFChunkEncoding.appendFooter(
                stream: record.info.id, first: record.firstTimestamp ?? 0, last: record.lastTimestamp ?? 0,
                count: record.sampleCount,
                offsets: zip(record.clockTimes, record.clockValues).map { (time: $0, value: $1) },
                to: &tail)
        }
        let backup = try saveOriginal(path)
        let temporary = path + ".repairing"
        do {
            let out = try OutputFile(path: temporary)
            let input = try XDFInput(path: path)
            var left = index.wholeEnd
            while left > 0 {
                let n = Int(Swift.min(left, 1 << 20))
                guard let block = try input.take(n) else {
                    throw XDFFileError(path: path, problem: "the file shrank while it was repaired")
                }
                try out.write(block)
                left -= Int64(n)
            }
            try out.write(tail)
            try out.sync()
            try out.close()
            guard rename(temporary, path) == 0 else {
                throw XDFFileError(path: path, problem: "cannot replace it: \(String(cString: strerror(errno)))")
            }
        } catch {
            unlink(temporary)
            throw error
        }
        return Outcome(
            path: path, changed: true, footersAdded: missing.map(\.info.name), bytesDropped: dropped, samples: samples,
            backupPath: backup)
    }

    /// Links the original to the first free `path.orig`, `path.orig.2` …
    private static func saveOriginal(_ path: String) throws -> String {
        var n = 1
        while true {
            let candidate = n == 1 ? path + ".orig" : path + ".orig.\(n)"
            n += 1
            if link(path, candidate) == 0 { return candidate }
            if errno == EEXIST { continue }
            throw XDFFileError(
                path: path, problem: "cannot keep the original as \(candidate): \(String(cString: strerror(errno)))")
        }
    }
}
