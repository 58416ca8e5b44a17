import DAQCore
import Foundation

/// Parses GS1 element strings as scanners send them — AIs run together, FNC1 sent as GS
/// (0x1D) after variable-length data — and in the human-readable form `(01)…(17)…`.
public enum ElementStringParser {
    static let gs: UInt8 = 0x1D

    /// Parses `text`; problems are collected with their offsets, never thrown, and what can be
    /// read around them is kept.
    public static func parse(_ text: String, today: Date = Date()) -> GS1Data {
        let bytes = Array(text.utf8)
        if bytes.first == UInt8(ascii: "(") { return parseBracketed(bytes, today: today) }
        var data = GS1Data()
        var i = bytes.first == gs ? 1 : 0  // a leading FNC1
        while i < bytes.count {
            if bytes[i] == gs {
                i += 1
                continue
            }
            guard let entry = AITable.lookup(bytes, at: i) else {
                let shown = PrintableText.escaped(bytes[i..<min(i + 4, bytes.count)])
                data.errors.append("offset \(i): unknown application identifier at '\(shown)'")
                return data
            }
            let start = i + entry.ai.count
            var end: Int
            if entry.predefined {
                end = start + entry.maxLength
                if end > bytes.count {
                    data.errors.append(
                        "offset \(start): AI (\(entry.ai)) needs \(entry.maxLength) characters, found \(bytes.count - start)"
                    )
                    return data
                }
            } else {
                end = bytes[start...].firstIndex(of: gs) ?? bytes.count
                if end - start > entry.maxLength {
                    // No separator where one was needed: the data runs into what follows.
                    data.errors.append(
                        "offset \(start): AI (\(entry.ai)) holds at most \(entry.maxLength) characters, found \(end - start) before the next separator (a missing FNC1?)"
                    )
                    end = start + entry.maxLength
                }
            }
            let raw = Array(bytes[start..<end])
            check(entry, raw, at: start, today: today, into: &data)
            i = end
        }
        return data
    }

    /// `(01)09501101530003(17)201225`: each AI in brackets, no separators needed.
    static func parseBracketed(_ bytes: [UInt8], today: Date) -> GS1Data {
        var data = GS1Data()
        var i = 0
        while i < bytes.count {
            guard bytes[i] == UInt8(ascii: "("), let close = bytes[i...].firstIndex(of: UInt8(ascii: ")")) else {
                data.errors.append("offset \(i): expected '(' and an application identifier")
                return data
            }
            let ai = String(decoding: bytes[(i + 1)..<close], as: UTF8.self)
            guard let entry = AITable.entries[ai] else {
                data.errors.append("offset \(i + 1): unknown application identifier (\(PrintableText.escaped(ai)))")
                return data
            }
            let start = close + 1
            let end = bytes[start...].firstIndex(of: UInt8(ascii: "(")) ?? bytes.count
            check(entry, Array(bytes[start..<end]), at: start, today: today, into: &data)
            i = end
        }
        return data
    }

    /// Checks one AI's data against its components and appends the element (even when wrong,
    /// so the raw data is kept) and any error.
    static func check(_ entry: AIEntry, _ raw: [UInt8], at offset: Int, today: Date, into data: inout GS1Data) {
        let text = String(decoding: raw, as: UTF8.self)
        var element = GS1Element(ai: entry.ai, name: entry.name, title: entry.title, raw: text, value: .string(text))
        if let problem = ComponentCheck.validate(entry, raw, at: offset) {
            data.errors.append(problem)
            element.isValid = false
        } else {
            element.value = ComponentCheck.value(entry, raw, today: today, currency: &element.currency)
        }
        data.elements.append(element)
    }
}
