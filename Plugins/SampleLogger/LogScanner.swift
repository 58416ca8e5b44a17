import DAQCore

/// Walks a `logger.json` file byte by byte and finds where its last complete item ends.
///
/// It tracks strings (with their escapes) and nesting, so a `]` or `}` inside a string or a
/// nested field never looks like the end of an item. Each complete item is parsed on its own,
/// which keeps memory bounded by the largest item rather than the file.
struct LogScanner {
    /// What a scan found.
    struct Scan {
        /// Whether the root is an array (`root: array`) rather than `{"startDate", "items"}`.
        var rootIsArray: Bool
        /// The offset just past the items array's `[`.
        var itemsStart: Int
        /// The offset just past the last complete item, or ``itemsStart`` when there is none.
        var keptEnd: Int
        /// Complete items.
        var items: Int
        /// Whether the whole log is there, closed, with nothing but whitespace after it.
        var complete: Bool
    }

    /// A file that is not a logger JSON log, with the reason.
    struct NotALog: Error {
        var reason: String
    }

    private enum Expect { case itemOrEnd, item, commaOrEnd }

    static func scan(_ bytes: [UInt8]) throws(NotALog) -> Scan {
        var stack: [UInt8] = []
        var inString = false
        var escaped = false
        var itemsStart: Int?
        var inItems = false
        var itemsDepth = 0  // the stack depth inside the items array
        var itemStart = 0
        var expect = Expect.itemOrEnd
        var items = 0
        var keptEnd = 0
        var closedAt: Int?
        var rootIsArray = false
        for i in bytes.indices {
            let b = bytes[i]
            if inString {
                if escaped {
                    escaped = false
                } else if b == UInt8(ascii: "\\") {
                    escaped = true
                } else if b == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            let isSpace = b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09
            if closedAt != nil {
                if isSpace { continue }
                throw NotALog(reason: "text after the end of the JSON value at byte \(i + 1)")
            }
            // Directly inside the items array only items, commas and the closing `]` may appear.
            let atItemsLevel = inItems && stack.count == itemsDepth
            if atItemsLevel && !isSpace {
                switch (b, expect) {
                case (UInt8(ascii: "{"), .itemOrEnd), (UInt8(ascii: "{"), .item): itemStart = i
                case (UInt8(ascii: ","), .commaOrEnd):
                    expect = .item
                    continue
                case (UInt8(ascii: "]"), .itemOrEnd), (UInt8(ascii: "]"), .commaOrEnd): break
                default: throw NotALog(reason: "expected an item object at byte \(i + 1)")
                }
            }
            switch b {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                if stack.isEmpty { rootIsArray = b == UInt8(ascii: "[") }
                stack.append(b)
                // The items: the root array, or the first array directly inside the root object.
                if itemsStart == nil, b == UInt8(ascii: "["), stack.count == (rootIsArray ? 1 : 2) {
                    itemsStart = i + 1
                    itemsDepth = stack.count
                    inItems = true
                    try checkHeader(bytes[..<(i + 1)], rootIsArray: rootIsArray)
                }
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                let opener = b == UInt8(ascii: "}") ? UInt8(ascii: "{") : UInt8(ascii: "[")
                guard stack.last == opener else {
                    throw NotALog(reason: "unbalanced '\(Character(UnicodeScalar(b)))' at byte \(i + 1)")
                }
                stack.removeLast()
                if inItems, stack.count == itemsDepth - 1 { inItems = false }
                if inItems, stack.count == itemsDepth, b == UInt8(ascii: "}") {
                    try checkItem(bytes[itemStart...i], number: items + 1, at: itemStart, requireUptime: items == 0)
                    items += 1
                    keptEnd = i + 1
                    expect = .commaOrEnd
                }
                if stack.isEmpty { closedAt = i }
            default:
                if stack.isEmpty && !isSpace { throw NotALog(reason: "it does not start with '{' or '['") }
            }
        }
        guard let itemsStart else {
            if stack.isEmpty && closedAt == nil { throw NotALog(reason: "the file is empty") }
            throw NotALog(reason: "no items array in its first bytes")
        }
        return Scan(
            rootIsArray: rootIsArray, itemsStart: itemsStart, keptEnd: max(keptEnd, itemsStart), items: items,
            complete: closedAt != nil)
    }

    /// The bytes before the items must be `{"startDate": "…", "items": [` (or just `[`).
    private static func checkHeader(_ header: ArraySlice<UInt8>, rootIsArray: Bool) throws(NotALog) {
        if rootIsArray { return }
        let closed = Array(header) + Array("]}".utf8)
        guard case .object(let fields)? = try? JSONParser.parse(closed),
            case .string(_)? = fields["startDate"], fields.keys.last == "items"
        else { throw NotALog(reason: "its root object does not begin with \"startDate\" and \"items\"") }
    }

    /// Each item must be a JSON object; the first must carry `uptime`, as every logger item does.
    private static func checkItem(
        _ item: ArraySlice<UInt8>, number: Int, at offset: Int, requireUptime: Bool
    ) throws(NotALog) {
        let value: Value
        do {
            value = try JSONParser.parse(item)
        } catch {
            throw NotALog(reason: "item \(number) at byte \(offset + 1) is not valid JSON: \(error)")
        }
        if requireUptime {
            guard case .object(let fields) = value, fields["uptime"] != nil else {
                throw NotALog(reason: "its first item has no \"uptime\"")
            }
        }
    }
}
