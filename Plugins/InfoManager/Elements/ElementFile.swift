import DAQCore
import Yams

/// The elements and news a reference server answers from, read from a YAML or JSON file:
///
/// ```yaml
/// elements:
///   - id: "4006381333931"
///     input_type: barcode
///     content:
///       en: { name: Pencil, description: HB pencil, url: "https://example.org/p/1" }
///       de: { name: Bleistift, description: HB-Bleistift }
/// news:
///   en-GB: "Maintenance on Sunday"
/// ```
///
/// `news` is either one text per language, as above (one item, id `news`), or a list of items:
///
/// ```yaml
/// news:
///   - id: maintenance
///     updated: "2026-10-01T08:00:00Z"
///     text: { en-GB: "Maintenance on Sunday", de: "Wartung am Sonntag" }
/// ```
///
/// Every problem in the file is reported, each with its line and column, before anything is
/// served: a server must not start (or reload) half a file.
public struct ElementFile: Sendable {
    /// The elements by id.
    public private(set) var elements: [String: Element] = [:]
    /// The news items, in file order.
    public private(set) var news: [NewsItem] = []

    /// Elements files can be large catalogues; larger than this is a mistake.
    public static let maxBytes = 64 << 20

    public init(elements: [Element], news: [NewsItem] = []) {
        for e in elements { self.elements[e.id] = e }
        self.news = news
    }

    /// Reads the file at `path`.
    /// - Throws: ``ConfigError`` with every problem found.
    public init(path: String) throws(ConfigError) {
        try self.init(
            node: YAMLFile.compose(
                path: path, limit: Self.maxBytes, kind: "an elements file (YAML or JSON)"), file: path)
    }

    /// Reads a file's text; `file` names it in messages.
    public init(text: String, file: String) throws(ConfigError) {
        try self.init(node: YAMLFile.compose(text: text, file: file), file: file)
    }

    private init(node root: Node, file: String) throws(ConfigError) {
        var problems = ElementFileProblems(file: file)
        guard let top = root.mapping else {
            throw ConfigError([
                problems.diagnostic(
                    root, "",
                    "expected a mapping with 'elements' (and optionally 'news'), found \(root.kindName)")
            ])
        }
        for (key, value) in top {
            switch key.string ?? "" {
            case "elements": readElements(value, &problems)
            case "news": news = problems.news(value)
            default: problems.add(key, key.string ?? "", "unknown key; expected 'elements' or 'news'")
            }
        }
        if top["elements"] == nil { problems.add(root, "", "missing 'elements'") }
        if !problems.diagnostics.isEmpty {
            throw ConfigError(
                problems.diagnostics.sorted {
                    ($0.line ?? 0, $0.column ?? 0) < ($1.line ?? 0, $1.column ?? 0)
                })
        }
    }

    private mutating func readElements(_ node: Node, _ problems: inout ElementFileProblems) {
        guard let list = node.sequence else {
            problems.add(node, "elements", "expected a list of elements, found \(node.kindName)")
            return
        }
        var firstLine: [String: Int] = [:]
        for (i, item) in list.enumerated() {
            let path = "elements.\(i)"
            guard let element = problems.element(item, path) else { continue }
            if let line = firstLine[element.id] {
                problems.add(item, path + ".id", "id '\(element.id)' given twice (first on line \(line))")
                continue
            }
            firstLine[element.id] = item.mark?.line ?? 0
            elements[element.id] = element
        }
    }
}
