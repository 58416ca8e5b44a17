import DAQCore
import Foundation

/// The first line of a recording, to recognise its format by content, and words for what a
/// file looks like when it is not the format it was read as (never its raw bytes).
enum RecordingSniff {
    /// The first line of `path` (decompressed when gzip), at most 512 bytes; `nil` when it
    /// cannot be read (opening it again reports why).
    static func firstLine(_ path: String) -> String? {
        guard let reader = try? ByteReader(path: path) else { return nil }
        var buffer: [UInt8] = []
        guard let n = try? reader.read(into: &buffer, count: 512), n > 0 else { return nil }
        let bytes = buffer[..<n]
        let end = bytes.firstIndex(of: 0x0A) ?? n
        var line = bytes[..<end]
        if line.last == 0x0D { line = line.dropLast() }
        return String(decoding: line, as: UTF8.self)
    }

    /// What a first line looks like, for messages: `it starts with 'time,x,y,z'`, or the
    /// format it belongs to when it is a known one.
    static func describe(_ line: String) -> String {
        if line.hasPrefix("MD") && line.unicodeScalars.contains(where: { $0.value < 0x20 && $0 != "\t" }) {
            return "it looks like an Axivity .cwa file (it starts with 'MD')"
        }
        if line.hasPrefix("PK\u{3}\u{4}") { return "it looks like a zip archive (an ActiGraph .gt3x?)" }
        if GENEActivHeader.isFirstLine(line) { return "it looks like a GENEActiv .bin file" }
        if GENEActivCSVReader.matches(firstLine: line) { return "it looks like a GENEActiv CSV export" }
        if ActiLifeCSVReader.matches(firstLine: line) { return "it looks like an ActiLife CSV export" }
        let printable = line.unicodeScalars.allSatisfy {
            $0.value >= 0x20 && $0.value != 0x7F || $0 == "\t" || $0 == "\r"
        }
        if !printable || line.contains("\u{FFFD}") { return "it starts with binary data" }
        if line.trimmingCharacters(in: .whitespaces).isEmpty { return "its first line is empty" }
        return "it starts with '\(line.prefix(60))'"
    }
}
