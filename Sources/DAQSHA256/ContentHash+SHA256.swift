import Crypto
import DAQCore

extension ContentHash {
    /// swift-crypto's SHA-256: the hash `daq` records in every manifest and compares configs by.
    public static let sha256 = ContentHash { CryptoSHA256() }
}

/// swift-crypto's `SHA256` behind DAQCore's ``ContentHasher``: DAQCore names no crypto type.
private struct CryptoSHA256: ContentHasher {
    private var hasher = SHA256()

    mutating func update(_ bytes: UnsafeRawBufferPointer) {
        hasher.update(bufferPointer: bytes)
    }

    func finalize() -> [UInt8] {
        Array(hasher.finalize())
    }
}
