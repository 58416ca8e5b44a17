import DAQCore
import Foundation

/// GS1 Digital Link URIs (`https://id.gs1.org/01/09506000134352/10/ABC123?17=271130`): a
/// primary key and its qualifiers in the path, further AIs in the query, on any domain.
public enum DigitalLink {
    /// Whether `text` looks like an HTTP(S) URI, so it is read as a Digital Link.
    public static func isCandidate(_ text: String) -> Bool {
        text.hasPrefix("https://") || text.hasPrefix("http://") || text.hasPrefix("HTTPS://")
            || text.hasPrefix("HTTP://")
    }

    /// The element strings of a Digital Link URI; offsets in errors count characters of `text`.
    public static func parse(_ text: String, today: Date = Date()) -> GS1Data {
        var data = GS1Data()
        let bytes = Array(text.utf8)
        guard let schemeEnd = text.range(of: "://") else {
            data.errors.append("offset 0: not a URI")
            return data
        }
        let afterScheme = text.utf8.distance(from: text.startIndex, to: schemeEnd.upperBound)
        guard let pathStart = bytes[afterScheme...].firstIndex(of: UInt8(ascii: "/")) else {
            data.errors.append("offset \(bytes.count): no path: expected /01/<GTIN> or another primary key")
            return data
        }
        let queryStart = bytes[pathStart...].firstIndex(of: UInt8(ascii: "?")) ?? bytes.count
        let fragment = bytes[pathStart...].firstIndex(of: UInt8(ascii: "#")) ?? bytes.count
        let pathEnd = min(queryStart, fragment)
        // Path segments with their offsets.
        var segments: [(Int, [UInt8])] = []
        var s = pathStart + 1
        while s <= pathEnd {
            let e = bytes[s..<pathEnd].firstIndex(of: UInt8(ascii: "/")) ?? pathEnd
            segments.append((s, Array(bytes[s..<e])))
            s = e + 1
        }
        // The primary key may follow a path prefix of the resolver's own (`/shop/01/…`).
        guard
            let keyIndex = segments.indices.first(where: { i in
                AITable.entries[String(decoding: segments[i].1, as: UTF8.self)]?.isPrimaryKey == true
                    && i + 1 < segments.count
            })
        else {
            data.errors.append(
                "offset \(pathStart): no GS1 primary key (/01/, /00/, /414/, …) with a value in the path")
            return data
        }
        var i = keyIndex
        while i + 1 < segments.count {
            let (at, aiBytes) = segments[i]
            let ai = String(decoding: aiBytes, as: UTF8.self)
            guard let entry = AITable.entries[ai] else {
                data.errors.append(
                    "offset \(at): unknown application identifier (\(PrintableText.escaped(ai))) in the path")
                break
            }
            let (valueAt, valueBytes) = segments[i + 1]
            element(entry, percentDecoded(valueBytes), at: valueAt, today: today, into: &data)
            i += 2
        }
        if i < segments.count, i > keyIndex {
            data.errors.append("offset \(segments[i].0): a path AI without a value")
        }
        guard queryStart < fragment else { return data }
        var q = queryStart + 1
        while q < fragment {
            let e = bytes[q..<fragment].firstIndex(of: UInt8(ascii: "&")) ?? fragment
            let pair = bytes[q..<e]
            if let eq = pair.firstIndex(of: UInt8(ascii: "=")) {
                let key = String(decoding: bytes[q..<eq], as: UTF8.self)
                // Other parameters (linkType, context) are not AIs and are left alone.
                if !key.isEmpty, key.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) {
                    if let entry = AITable.entries[key] {
                        element(
                            entry, percentDecoded(Array(bytes[(eq + 1)..<e])), at: eq + 1, today: today, into: &data)
                    } else {
                        data.errors.append("offset \(q): unknown application identifier (\(key)) in the query")
                    }
                }
            }
            q = e + 1
        }
        return data
    }

    private static func element(_ entry: AIEntry, _ raw: [UInt8], at offset: Int, today: Date, into data: inout GS1Data)
    {
        // Digital Link writes a GTIN-8/12/13 as 14 digits or as is; GS1 keys are 14 digits.
        var raw = raw
        if entry.ai == "01" || entry.ai == "02", [8, 12, 13].contains(raw.count) {
            raw = Array(repeating: UInt8(ascii: "0"), count: 14 - raw.count) + raw
        }
        ElementStringParser.check(entry, raw, at: offset, today: today, into: &data)
    }

    static func percentDecoded(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var i = 0
        while i < bytes.count {
            if bytes[i] == UInt8(ascii: "%"), i + 2 < bytes.count,
                let v = UInt8(String(decoding: bytes[(i + 1)...(i + 2)], as: UTF8.self), radix: 16)
            {
                out.append(v)
                i += 3
            } else {
                out.append(bytes[i])
                i += 1
            }
        }
        return out
    }
}
