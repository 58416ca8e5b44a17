/// What kind of identifier an element answers for: a beacon's number, a barcode, an NFC tag id.
public enum InputType: String, Sendable, Codable, CaseIterable {
    case beacon, barcode, nfc
}

/// The content of an element in one language.
public struct ElementContent: Sendable, Equatable {
    public var name: String?
    public var description: String?
    public var url: String?
    public var imageURL: String?

    public init(name: String? = nil, description: String? = nil, url: String? = nil, imageURL: String? = nil) {
        self.name = name
        self.description = description
        self.url = url
        self.imageURL = imageURL
    }
}

/// One element of an Info Manager service: an id and its content per language, the languages
/// in the order the elements file gives them (the first is the element's default).
public struct Element: Sendable {
    public var id: String
    public var inputType: InputType
    public var content: [(language: String, content: ElementContent)]
    /// When the element last changed, ISO-8601, as the file states it.
    public var updated: String?

    public init(
        id: String, inputType: InputType, content: [(language: String, content: ElementContent)], updated: String? = nil
    ) {
        self.id = id
        self.inputType = inputType
        self.content = content
        self.updated = updated
    }
}

/// The answer for one element in the language chosen by ``LanguagePriority``: the body of
/// `GET /v1/elements/{id}`.
public struct ElementAnswer: Sendable, Equatable, Codable {
    public var id: String
    public var inputType: InputType
    public var language: String
    public var name: String?
    public var description: String?
    public var url: String?
    public var imageURL: String?
    public var updated: String?

    enum CodingKeys: String, CodingKey {
        case id
        case inputType = "input_type"
        case language, name, description, url
        case imageURL = "image_url"
        case updated
    }

    public init(element: Element, language: String, content: ElementContent) {
        id = element.id
        inputType = element.inputType
        self.language = language
        name = content.name
        description = content.description
        url = content.url
        imageURL = content.imageURL
        updated = element.updated
    }
}
