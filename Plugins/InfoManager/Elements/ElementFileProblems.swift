import DAQCore
import Yams

/// Reads the parts of an elements file, collecting a diagnostic for each problem.
struct ElementFileProblems {
    let file: String
    var diagnostics: [Diagnostic] = []

    func diagnostic(_ node: Node, _ path: String, _ message: String) -> Diagnostic {
        Diagnostic(
            file: file, line: node.mark?.line, column: node.mark?.column, path: path, message: message)
    }

    mutating func add(_ node: Node, _ path: String, _ message: String) {
        diagnostics.append(diagnostic(node, path, message))
    }

    /// A non-empty string scalar (numbers keep their text: an unquoted `0012` stays `0012`).
    mutating func text(_ node: Node?, _ path: String, required: Bool) -> String? {
        guard let node else {
            return nil
        }
        guard case .scalar(let s) = node, !node.isNullScalar else {
            add(node, path, "expected text, found \(node.kindName)")
            return nil
        }
        if required && s.string.isEmpty { add(node, path, "must not be empty") }
        return s.string
    }

    /// A mapping of language tag → value, in file order; `expected` names the value in messages.
    mutating func languageMap<T>(
        _ node: Node, _ path: String, expected: String, _ value: (Node) -> T?
    ) -> [(language: String, text: T)] {
        guard let map = node.mapping else {
            add(
                node, path,
                "expected a mapping of language tags (en, de, en-GB) to values, found \(node.kindName)")
            return []
        }
        var out: [(language: String, text: T)] = []
        for (key, v) in map {
            let tag = key.string ?? ""
            guard Self.isLanguageTag(tag) else {
                add(key, path + "." + tag, "'\(tag)' is not a language tag such as en, de or en-GB")
                continue
            }
            guard let parsed = value(v) else {
                add(v, path + "." + tag, "expected \(expected), found \(v.kindName)")
                continue
            }
            out.append((tag, parsed))
        }
        return out
    }

    static let newsKeys = ["id", "updated", "text"]

    /// `news`: a map of language to text (one item), or a list of items with id, updated, text.
    mutating func news(_ node: Node) -> [NewsItem] {
        if node.mapping != nil {
            let text = languageMap(node, "news", expected: "text") { $0.string }
            return text.isEmpty ? [] : [NewsItem(id: NewsItem.singleID, text: text)]
        }
        guard let list = node.sequence else {
            add(
                node, "news",
                "expected a mapping of language tags to text, or a list of items, found \(node.kindName)")
            return []
        }
        var items: [NewsItem] = []
        var firstLine: [String: Int] = [:]
        for (i, item) in list.enumerated() {
            let path = "news.\(i)"
            guard let map = item.mapping else {
                add(item, path, "expected a news item with id and text, found \(item.kindName)")
                continue
            }
            for key in map.keys where !Self.newsKeys.contains(key.string ?? "") {
                add(
                    key, path + "." + (key.string ?? ""),
                    "unknown key; expected one of \(Self.newsKeys.joined(separator: ", "))")
            }
            let id = text(map["id"], path + ".id", required: true)
            if map["id"] == nil { add(item, path, "missing 'id'") }
            let updated = text(map["updated"], path + ".updated", required: false)
            guard let textNode = map["text"] else {
                add(item, path, "missing 'text' (a mapping of language tags to text)")
                continue
            }
            let texts = languageMap(textNode, path + ".text", expected: "text") { $0.string }
            if texts.isEmpty, textNode.mapping?.isEmpty == true {
                add(textNode, path + ".text", "no language given")
            }
            guard let id, !texts.isEmpty else { continue }
            if let line = firstLine[id] {
                add(item, path + ".id", "id '\(id)' given twice (first on line \(line))")
                continue
            }
            firstLine[id] = item.mark?.line ?? 0
            items.append(NewsItem(id: id, updated: updated, text: texts))
        }
        return items
    }

    static let elementKeys = ["id", "input_type", "content", "updated"]
    static let contentKeys = ["name", "description", "url", "image_url"]

    mutating func element(_ node: Node, _ path: String) -> Element? {
        guard let map = node.mapping else {
            add(
                node, path,
                "expected an element mapping with id, input_type and content, found \(node.kindName)")
            return nil
        }
        for key in map.keys where !Self.elementKeys.contains(key.string ?? "") {
            add(
                key, path + "." + (key.string ?? ""),
                "unknown key; expected one of \(Self.elementKeys.joined(separator: ", "))")
        }
        // Without an id the element is dropped, but the rest of it is still checked.
        let id = text(map["id"], path + ".id", required: true)
        if map["id"] == nil { add(node, path, "missing 'id'") }
        var type = InputType.barcode
        if let raw = text(map["input_type"], path + ".input_type", required: true) {
            if let t = InputType(rawValue: raw) {
                type = t
            } else {
                add(
                    map["input_type"]!, path + ".input_type",
                    "unknown input type '\(raw)'; expected beacon, barcode or nfc")
            }
        } else if map["input_type"] == nil {
            add(node, path, "missing 'input_type' (beacon, barcode or nfc)")
        }
        let updated = text(map["updated"], path + ".updated", required: false)
        guard let contentNode = map["content"] else {
            add(
                node, path,
                "missing 'content' (a mapping of language tags to name, description, url, image_url)")
            return nil
        }
        let nodes = languageMap(contentNode, path + ".content", expected: "a mapping") {
            $0.mapping == nil ? nil : $0
        }
        if nodes.isEmpty, contentNode.mapping?.isEmpty == true {
            add(contentNode, path + ".content", "no language given")
        }
        let content = nodes.map {
            ($0.language, self.content($0.text, path + ".content." + $0.language))
        }
        guard let id else { return nil }
        return Element(id: id, inputType: type, content: content, updated: updated)
    }

    /// One language's content; a wrong key is reported and the others still read.
    private mutating func content(_ node: Node, _ path: String) -> ElementContent {
        let map = node.mapping ?? [:]
        for key in map.keys where !Self.contentKeys.contains(key.string ?? "") {
            add(
                key, path + "." + (key.string ?? ""),
                "unknown key; expected one of \(Self.contentKeys.joined(separator: ", "))")
        }
        func field(_ key: String) -> String? { text(map[key], path + "." + key, required: false) }
        return ElementContent(
            name: field("name"), description: field("description"), url: field("url"),
            imageURL: field("image_url"))
    }

    /// A BCP 47-like tag: letters, then `-` and letters or digits.
    static func isLanguageTag(_ tag: String) -> Bool {
        let parts = tag.split(separator: "-", omittingEmptySubsequences: false)
        guard let first = parts.first, (2...3).contains(first.count), first.allSatisfy(\.isLetter)
        else { return false }
        return parts.dropFirst().allSatisfy {
            (1...8).contains($0.count) && $0.allSatisfy { $0.isLetter || $0.isNumber }
        }
    }
}
