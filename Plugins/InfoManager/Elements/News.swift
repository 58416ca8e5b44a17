/// One news item of an Info Manager service: an id, when it last changed, and its text per
/// language in the order the elements file gives them (the first is the item's default).
public struct NewsItem: Sendable {
    public var id: String
    /// When the item last changed, ISO-8601, as the file states it.
    public var updated: String?
    public var text: [(language: String, text: String)]

    public init(id: String, updated: String? = nil, text: [(language: String, text: String)]) {
        self.id = id
        self.updated = updated
        self.text = text
    }
}

/// One news item in the language chosen by ``LanguagePriority``.
public struct NewsItemAnswer: Sendable, Equatable, Codable {
    public var id: String
    public var language: String
    public var text: String
    public var updated: String?

    public init(id: String, language: String, text: String, updated: String? = nil) {
        self.id = id
        self.language = language
        self.text = text
        self.updated = updated
    }
}

/// The body of `GET /v1/news`: every item, each in the first requested language it has (else
/// its own first language), and, for clients that read one text, the first item's `language`
/// and `text`.
public struct NewsAnswer: Sendable, Equatable, Codable {
    public var language: String
    public var text: String
    public var items: [NewsItemAnswer]

    /// The answer for `items`, which must not be empty.
    public init(items: [NewsItemAnswer]) {
        language = items[0].language
        text = items[0].text
        self.items = items
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        language = try c.decode(String.self, forKey: .language)
        text = try c.decode(String.self, forKey: .text)
        // A service that predates items sends one text: that is its one item.
        items =
            try c.decodeIfPresent([NewsItemAnswer].self, forKey: .items)
            ?? [NewsItemAnswer(id: NewsItem.singleID, language: language, text: text)]
    }
}

extension NewsItem {
    /// The id of the one item of a `news:` given as a map of language to text.
    public static let singleID = "news"
}
