extension ElementFile {
    /// The element `id` in the first of `languages` it has (see ``LanguagePriority``); `nil`
    /// when the id is unknown or the element has no content at all.
    public func answer(id: String, languages: [String]) -> ElementAnswer? {
        guard let element = elements[id],
            let i = LanguagePriority.choose(languages, from: element.content.map(\.language))
        else {
            return nil
        }
        let chosen = element.content[i]
        return ElementAnswer(element: element, language: chosen.language, content: chosen.content)
    }

    /// Every news item, each in the first of `languages` it has (see ``LanguagePriority``: an
    /// item without any of them answers in its own first language, as an element does); `nil`
    /// when there is no news at all.
    public func news(languages: [String]) -> NewsAnswer? {
        let items = news.compactMap { item -> NewsItemAnswer? in
            guard let i = LanguagePriority.choose(languages, from: item.text.map(\.language)) else {
                return nil
            }
            return NewsItemAnswer(
                id: item.id, language: item.text[i].language, text: item.text[i].text, updated: item.updated
            )
        }
        return items.isEmpty ? nil : NewsAnswer(items: items)
    }
}
