import DAQCore
import Foundation

/// The text header of a GENEActiv `.bin` file: `Key:Value` lines under section titles (Device
/// Identity, Configuration Info, Calibration Data, Memory Status, …), up to the first
/// `Recorded Data` line.
struct GENEActivHeader {
    /// Every `Key:Value` of the header, by section and key.
    private(set) var values: [String: [String: String]] = [:]
    /// The line number of every key, for messages.
    private var lineOf: [String: Int] = [:]
    /// Whether the header ended at a `Recorded Data` line (else at the end of the file).
    private(set) var reachedPages = false

    /// `Device Identity`, the first line of every `.bin` file (NULs and spaces around it ignored).
    static func isFirstLine(_ line: String) -> Bool { clean(line) == "Device Identity" }

    /// Reads lines up to and including the first `Recorded Data`.
    /// - Throws: ``BadRow`` when the first line is not `Device Identity`.
    init(reader: LineReader, path: String) throws {
        var section = ""
        var first = true
        var failure: BadRow?
        while failure == nil {
            var text = ""
            guard try reader.nextLine({ text = String(decoding: $0, as: UTF8.self) }) == .line else { break }
            let line = Self.clean(text)
            if first {
                first = false
                if line != "Device Identity" {
                    failure = BadRow(
                        path: path, line: reader.lineNumber,
                        message:
                            "not a GENEActiv .bin file: it should start with 'Device Identity', but \(RecordingSniff.describe(text))"
                    )
                    break
                }
            }
            if line == "Recorded Data" {
                reachedPages = true
                break
            }
            guard !line.isEmpty else { continue }
            guard let colon = line.firstIndex(of: ":") else {
                section = line
                continue
            }
            let key = String(line[..<colon]).trimmingCharacters(in: .whitespaces)
            values[section, default: [:]][key] = String(line[line.index(after: colon)...]).trimmingCharacters(
                in: .whitespaces)
            lineOf[section + "/" + key] = reader.lineNumber
        }
        if let failure { throw failure }
        if first { throw BadRow(path: path, line: 1, message: "the file is empty") }
    }

    /// The value of `key` in `section`, if present and not empty.
    func value(_ section: String, _ key: String) -> String? {
        guard let v = values[section]?[key], !v.isEmpty else { return nil }
        return v
    }

    /// The line number of `key` in `section`, or 1.
    func line(_ section: String, _ key: String) -> Int { lineOf[section + "/" + key] ?? 1 }

    /// An integer of the calibration section.
    /// - Throws: ``BadRow`` naming the key when it is missing or not a whole number.
    func calibration(_ key: String, path: String, nonZero: Bool = false) throws -> Double {
        guard let text = value("Calibration Data", key) else {
            throw BadRow(
                path: path, line: line("Calibration Data", key), message: "the header has no calibration value '\(key)'"
            )
        }
        guard let v = Int(text), !nonZero || v != 0 else {
            throw BadRow(
                path: path, line: line("Calibration Data", key),
                message:
                    "calibration value '\(key)' should be a\(nonZero ? " non-zero" : "") whole number, found '\(text.prefix(40))'"
            )
        }
        return Double(v)
    }

    /// The leading number of a value such as `100 Hz`.
    static func leadingNumber(_ text: String?) -> Double? {
        guard let text else { return nil }
        return Double(text.prefix { $0.isNumber || $0 == "." || $0 == "-" })
    }

    /// Trims spaces, tabs and the NUL padding some firmware leaves at the end of header lines.
    ///
    /// On bytes: it runs for 8 lines of every 300-sample page, where Foundation's
    /// `trimmingCharacters(in:)` took over a quarter of a whole read.
    static func clean(_ text: String) -> String { clean(text[...]) }

    /// ``clean(_:)`` of part of a line.
    static func clean(_ text: Substring) -> String {
        let bytes = text.utf8
        func kept(_ b: UInt8) -> Bool { b != 0x20 && b != 0x09 && b != 0x00 && b != 0x0D }
        guard let first = bytes.firstIndex(where: kept), let last = bytes.lastIndex(where: kept) else { return "" }
        return String(decoding: bytes[first...last], as: UTF8.self)
    }
}
