import Foundation

/// The SHA-256 a run records: of its configuration (``PipelineSpec/configHash``, the manifest's
/// `configSHA256`) and of every file it wrote (the manifest's `files[].sha256`).
///
/// DAQCore does not compute it itself. On Linux the SHA-256 at hand is swift-crypto's, which
/// is BoringSSL, and a package of plugins should not compile that for a manifest it never
/// writes. The program hands one in instead: `daq` passes `ContentHash.sha256` (module
/// `DAQSHA256`) to ``PipelineLoader`` and ``RunOptions``. Given none, nothing is hashed:
/// `configHash` is empty and the manifest has `null` where a hash would be.
public struct ContentHash: Sendable {
    private let makeHasher: @Sendable () -> any ContentHasher

    /// A hash made by `makeHasher`, called once per digest.
    public init(_ makeHasher: @escaping @Sendable () -> any ContentHasher) {
        self.makeHasher = makeHasher
    }

    /// The lowercase hex digest of `parts`, hashed one after another as if they were joined.
    public func hex(of parts: [[UInt8]]) -> String {
        var hasher = makeHasher()
        for part in parts { part.withUnsafeBytes { hasher.update($0) } }
        return Self.hex(hasher.finalize())
    }

    /// The lowercase hex digest of a file's bytes, read a megabyte at a time.
    /// - Returns: `nil` when the file cannot be opened.
    public func hex(ofFile path: String) -> String? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        var hasher = makeHasher()
        while let chunk = try? handle.read(upToCount: 1 << 20), !chunk.isEmpty {
            chunk.withUnsafeBytes { hasher.update($0) }
        }
        return Self.hex(hasher.finalize())
    }

    private static func hex(_ digest: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(digest.count * 2)
        for byte in digest {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}

/// One digest in progress: bytes in, in order, then the digest.
public protocol ContentHasher {
    /// Adds `bytes` to the digest.
    mutating func update(_ bytes: UnsafeRawBufferPointer)
    /// The digest of every byte added so far.
    func finalize() -> [UInt8]
}
