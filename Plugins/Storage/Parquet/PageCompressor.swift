import CZlib

/// Compresses page bodies with a file's codec.
///
/// # Thread safety
/// Not thread-safe: one per file writer, used on its sink's queue only.
final class PageCompressor {
    let codec: ParquetCodec
    private let zstd: ZstdLibrary?
    private let zstdContext: OpaquePointer?
    private let level: Int32
    private var scratch: [UInt8] = []

    /// - Throws: ``ZstdUnavailable`` when `codec` is zstd and libzstd cannot be loaded.
    init(codec: ParquetCodec, level: Int32? = nil) throws {
        self.codec = codec
        if codec == .zstd {
            let library = try ZstdLibrary.shared()
            zstd = library
            zstdContext = library.createContext()
            self.level = level ?? 3
        } else {
            zstd = nil
            zstdContext = nil
            self.level = level ?? 6
        }
    }

    deinit {
        if let zstd, let zstdContext { _ = zstd.freeContext(zstdContext) }
    }

    /// `body` compressed, or `body` itself for an uncompressed file.
    func compress(_ body: [UInt8]) throws -> [UInt8] {
        switch codec {
        case .uncompressed: return body
        case .zstd: return try compressZstd(body)
        case .gzip: return try compressGzip(body)
        }
    }

    private func compressZstd(_ body: [UInt8]) throws -> [UInt8] {
        guard let zstd else { return body }
        let bound = zstd.compressBound(body.count)
        if scratch.count < bound { scratch = [UInt8](repeating: 0, count: bound) }
        let written = body.withUnsafeBytes { src in
            scratch.withUnsafeMutableBytes { dst in
                zstd.compress(zstdContext, dst.baseAddress, bound, src.baseAddress, src.count, level)
            }
        }
        if zstd.isError(written) != 0 { throw ParquetWriteError("zstd failed to compress a page (code \(written))") }
        return Array(scratch[0..<written])
    }

    /// A gzip member (RFC 1952), which is what Parquet's GZIP codec means.
    private func compressGzip(_ body: [UInt8]) throws -> [UInt8] {
        var stream = z_stream()
        // 15 + 16: a 32 KiB window with a gzip header and trailer instead of zlib's.
        var code = deflateInit2_(
            &stream, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY, zlibVersion(),
            Int32(MemoryLayout<z_stream>.size))
        guard code == Z_OK else { throw ParquetWriteError("gzip could not start (\(code))") }
        defer { deflateEnd(&stream) }
        let bound = Int(deflateBound(&stream, uLong(body.count))) + 32
        if scratch.count < bound { scratch = [UInt8](repeating: 0, count: bound) }
        var input = body
        code = input.withUnsafeMutableBufferPointer { src in
            scratch.withUnsafeMutableBufferPointer { dst in
                stream.next_in = src.baseAddress
                stream.avail_in = uInt(src.count)
                stream.next_out = dst.baseAddress
                stream.avail_out = uInt(dst.count)
                return deflate(&stream, Z_FINISH)
            }
        }
        guard code == Z_STREAM_END else { throw ParquetWriteError("gzip failed to compress a page (\(code))") }
        return Array(scratch[0..<Int(stream.total_out)])
    }
}

/// A Parquet file could not be written.
struct ParquetWriteError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
