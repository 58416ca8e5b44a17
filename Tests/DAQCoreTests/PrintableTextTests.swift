import DAQCore
import Foundation
import Testing

/// Bytes from outside reach messages escaped and cut, and a binary file given to a text reader
/// is named for what it is.
@Suite("Printable text in messages", .timeLimit(.minutes(20)))
struct PrintableTextTests {
    @Test func textIsKeptAndEverythingElseEscaped() {
        #expect(PrintableText.escaped("Grüße, 10 °C") == "Grüße, 10 °C")
        #expect(PrintableText.escaped(Array("a\u{1B}[31mb\u{7}".utf8)) == "a\\x1B[31mb\\x07")
        #expect(PrintableText.escaped([0x7F, 0x45, 0x4C, 0x46, 0x02, 0x00]) == "\\x7FELF\\x02\\x00")
        #expect(PrintableText.escaped("line\r\n\tend\\") == "line\\r\\n\\tend\\\\")
        // Broken UTF-8: a lone continuation byte, a cut sequence, an overlong encoding.
        #expect(PrintableText.escaped([0x61, 0x80, 0x62]) == "a\\x80b")
        #expect(PrintableText.escaped([0xE2, 0x82]) == "\\xE2\\x82")
        #expect(PrintableText.escaped([0xC0, 0xAF]) == "\\xC0\\xAF")
    }

    @Test func quotationsAreCutAt120Characters() {
        let long = PrintableText.escaped(String(repeating: "x", count: 500))
        #expect(long == String(repeating: "x", count: 120) + "…")
        let binary = PrintableText.escaped([UInt8](repeating: 0x01, count: 1_000))
        #expect(binary.count <= 121 && binary.hasSuffix("…") && binary.hasPrefix("\\x01\\x01"))
        #expect(PrintableText.escaped(String(repeating: "y", count: 120)) == String(repeating: "y", count: 120))
    }

    @Test func aJSONErrorNamesTheByteNotTheRawCharacter() throws {
        let error = #expect(throws: (any Error).self) { try JSONParser.parse(Array("\u{7F}ELF".utf8)) }
        #expect("\(error!)".contains("unexpected byte 0x7F"), "\(error!)")
        let letter = #expect(throws: (any Error).self) { try JSONParser.parse(Array("PK".utf8)) }
        #expect("\(letter!)".contains("unexpected 'P'"), "\(letter!)")
    }

    @Test func knownFormatsAreNamed() throws {
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let gt3x = try #require(
            BinarySniff.describe(path: repository.appendingPathComponent("recordings/wrist.gt3x").path))
        #expect(gt3x.contains("ActiGraph .gt3x"), "\(gt3x)")
        let btsnoop = try #require(
            BinarySniff.describe(path: repository.appendingPathComponent("recordings/beacons.btsnoop").path))
        #expect(btsnoop.contains("btsnoop capture (ble.replay reads it)"), "\(btsnoop)")
        let elf = try #require(BinarySniff.describe(path: "/proc/self/exe"))
        #expect(elf.contains("executable (ELF)"))
        #expect(
            BinarySniff.describe([0x4D, 0x44, 0xFC, 0x03] + [UInt8](repeating: 0, count: 1020))?.contains(
                "Axivity .cwa") == true)
        #expect(
            BinarySniff.describe(Array("Device Identity\r\nDevice Unique Serial Code:012345\r\n".utf8))?.contains(
                "GENEActiv") == true)
        #expect(BinarySniff.describe([0x1F, 0x8B, 0x08, 0x00])?.contains("gzip") == true)
    }

    @Test func textReadsAsText() throws {
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        for name in ["recordings/walk.csv", "recordings/scans.jsonl", "recordings/elements.yaml", "README.md"] {
            #expect(BinarySniff.describe(path: repository.appendingPathComponent(name).path) == nil, "\(name)")
        }
        // A head cut inside a multibyte character is still text.
        let text = Array(String(repeating: "ü", count: 3_000).utf8)
        #expect(BinarySniff.describe(text.prefix(4_095)) == nil)
        #expect(BinarySniff.describe([0x01, 0x02, 0x03, 0x41, 0x42]) != nil)
        #expect(BinarySniff.describe(Array("a\0b".utf8))?.contains("NUL") == true)
    }

    @Test(.timeLimit(.minutes(20)))
    func aFIFOIsNotReadToSniffIt() throws {
        // Reading a FIFO's first bytes would take them from its reader, or wait for a writer.
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("sniff-\(UUID().uuidString).fifo").path
        try #require(mkfifo(path, 0o600) == 0)
        defer { unlink(path) }
        #expect(BinarySniff.describe(path: path) == nil)
        #expect(throws: Never.self) { try BinarySniff.requireText(path: path, expected: "text") }
    }
}
