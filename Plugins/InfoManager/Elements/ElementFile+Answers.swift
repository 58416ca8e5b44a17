extension ElementFile {
    /// The element `id` in the first of `languages` it has (see ``LanguagePriority``); `nil`
    /// when the id is unknown or the element has no content at all.
    public func answer(id: String, languages: [String]) -> ElementAnswer? {
        guard let element = elements[id], let i = LanguagePriority.choose(languages, from: element.content.map(\.language)) else {
            return nil
        }
        let chosen = element.content[i]
        return ElementAnswer(element: element, language: chosen.language, content: chosen.content)
    }

    /// The news in the first of `languages` there is news in; `nil` when there is none.
    public func news(languages: [String]) -> NewsAnswer? {
        guard let i = LanguagePriority.choose(languages, from: news.map(\.language)) else { return nil }
        return NewsAnswer(language: news[i].language, text: news[i].text)
    }
}

/// The body of `GET /v1/news`.
public struct NewsAnswer: Sendable, Equatable, Codable {
    public var language: String
    public var text: String

    public init(language: String, text: String) {
        self.language = language
        self.text = text
    }
}
