import DAQCore
import DAQTesting
import Foundation
import Testing

/// Forged zip64 records (Tests/Fixtures/hostile, made by scripts/make-hostile-fixtures.py): each
/// is one clear error naming the file, where each used to trap.
@Suite struct ZipHostileTests {
    static func fixture(_ name: String) -> String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/hostile/\(name)").path
    }

    /// The zip64 end record starts where the directory ends: 56 + 20 + 22 bytes before the end.
    static func recordOffset(_ path: String) throws -> Int64 {
        let size = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        return Int64(size - 98)
    }

    @Test func aMemberCountOf2To64Minus1() throws {
        let path = Self.fixture("zip64-count.gt3x")
        let at = try Self.recordOffset(path)
        let error = #expect(throws: OutputFileError.self) { try ZipArchive(path: path) }
        let reason = try #require(error?.reason)
        #expect(
            reason.hasPrefix(
                "the member count in the zip64 record at byte \(at) is 18446744073709551615; expected from 0 to "),
            "\(reason)")
        #expect(reason.hasSuffix(" bytes)"), "\(reason)")
        #expect(error?.path == path)
    }

    @Test func aDirectorySizeOf2To63Minus1() throws {
        let path = Self.fixture("zip64-size.gt3x")
        let at = try Self.recordOffset(path)
        let error = #expect(throws: OutputFileError.self) { try ZipArchive(path: path) }
        #expect(
            error?.reason
                == "the directory size in the zip64 record at byte \(at) is 9223372036854775807, past the end of the file (\(at + 98) bytes)"
        )
    }

    @Test func aLocatorPointingAt2To64Minus1() throws {
        let path = Self.fixture("zip64-locator.gt3x")
        let at = try Self.recordOffset(path)
        let error = #expect(throws: OutputFileError.self) { try ZipArchive(path: path) }
        #expect(
            error?.reason
                == "the zip64 record offset in the locator at byte \(at + 56) is 18446744073709551615, past the end of the file (\(at + 98) bytes)"
        )
    }

    /// The zip64 path itself still reads: an archive that ends with honest zip64 records.
    @Test func anHonestZip64ArchiveIsRead() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("zip64-\(UUID().uuidString).zip").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let z = try ZipWriter(path: path)
        z.endsWithZip64 = true
        try z.begin("a.txt")
        try z.write(Array("hello".utf8))
        try z.begin("b.txt", method: .stored)
        try z.write(Array("world".utf8))
        try z.close()
        let zip = try ZipArchive(path: path)
        #expect(zip.entries.map(\.name) == ["a.txt", "b.txt"])
        #expect(try zip.contents(of: try #require(zip.entry(named: "b.txt"))) == Array("world".utf8))
        #expect(try zip.contents(of: try #require(zip.entry(named: "a.txt"))) == Array("hello".utf8))
    }
}
