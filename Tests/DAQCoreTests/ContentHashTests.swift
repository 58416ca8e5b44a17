import DAQCore
import DAQSHA256
import Foundation
import Testing

/// The hashes runs record, now computed by a ``ContentHash`` the program hands DAQCore: the
/// values must be those `daq` has always recorded (SHA-256, lowercase hex).
@Suite("content hash", .timeLimit(.minutes(20)))
struct ContentHashTests {
    /// A hasher that only counts bytes: what DAQCore does with any hash it is handed.
    struct ByteCount: ContentHasher {
        var count = 0
        mutating func update(_ bytes: UnsafeRawBufferPointer) { count += bytes.count }
        func finalize() -> [UInt8] { [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: count >> $0) } }
    }

    @Test func sha256MatchesTheStandardVectors() {
        // FIPS 180-2, appendix B.1, and the empty message.
        #expect(
            ContentHash.sha256.hex(of: [Array("abc".utf8)])
                == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(
            ContentHash.sha256.hex(of: [])
                == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(
            ContentHash.sha256.hex(of: [Array("a".utf8), [], Array("bc".utf8)])
                == ContentHash.sha256.hex(of: [Array("abc".utf8)]))
    }

    @Test func aFileIsHashedInChunks() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("hash-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        // Over a megabyte: more than one read.
        let bytes = (0..<(1 << 20) + 3).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        #expect(ContentHash.sha256.hex(ofFile: path) == ContentHash.sha256.hex(of: [bytes]))
        #expect(ContentHash { ByteCount() }.hex(ofFile: path) == "00100003")
        #expect(ContentHash.sha256.hex(ofFile: path + ".missing") == nil)
    }

    @Test func theConfigHashIsTheTextThenEachOverride() throws {
        var loader = try V.loader(overrides: ["speed=2"])
        loader.contentHash = .sha256
        let spec = try loader.load(text: V.minimal, file: "p.yaml")
        // What `daq` has always recorded as configSHA256 for this text run with `--set speed=2`.
        #expect(spec.configHash == ContentHash.sha256.hex(of: [Array((V.minimal + "\n--set speed=2").utf8)]))
        #expect(spec.configHash == Self.pinnedMinimalWithSpeed)
    }

    @Test func withoutAHashTheConfigIsNotHashed() throws {
        #expect(try V.load(V.minimal).configHash.isEmpty)
    }

    /// Computed apart from this code: Python's `hashlib.sha256` of the same bytes.
    static let pinnedMinimalWithSpeed = "c870c49581247ca9b24e3daccba308472c0387234e6ea018252578fe0d44df50"
}
