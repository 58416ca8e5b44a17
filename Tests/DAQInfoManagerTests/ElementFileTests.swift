import DAQCore
import DAQInfoManager
import Testing

@Suite(.timeLimit(.minutes(20))) struct ElementFileTests {
    static let example = """
        elements:
          - id: "4006381333931"
            input_type: barcode
            updated: "2026-11-01T10:00:00Z"
            content:
              en: { name: Pencil, description: HB pencil, url: "https://example.org/p/1" }
              de: { name: Bleistift, description: HB-Bleistift }
          - id: 0012
            input_type: beacon
            content:
              en-GB: { name: Door, image_url: "https://example.org/door.png" }
        news:
          en-GB: "Maintenance on Sunday"
          de: "Wartung am Sonntag"
        """

    @Test func answersInTheFirstListedLanguage() throws {
        let file = try ElementFile(text: Self.example, file: "elements.yaml")
        let de = try #require(file.answer(id: "4006381333931", languages: ["de", "en"]))
        #expect(de.language == "de" && de.name == "Bleistift" && de.url == nil && de.inputType == .barcode)
        #expect(de.updated == "2026-11-01T10:00:00Z")
        #expect(file.answer(id: "4006381333931", languages: ["fr", "en"])?.name == "Pencil")
        #expect(file.answer(id: "0012", languages: ["en"])?.imageURL == "https://example.org/door.png")
        #expect(file.answer(id: "12", languages: ["en"]) == nil)  // an unquoted id keeps its text
        #expect(
            file.news(languages: ["en"])
                == NewsAnswer(items: [NewsItemAnswer(id: "news", language: "en-GB", text: "Maintenance on Sunday")]))
    }

    @Test func newsIsAListOfItemsEachInItsBestLanguage() throws {
        let text = """
            elements: []
            news:
              - {id: a, updated: "2026-11-01T10:00:00Z", text: {en: One, de: Eins}}
              - {id: b, text: {fr: Deux}}
            """
        let file = try ElementFile(text: text, file: "e.yaml")
        let news = try #require(file.news(languages: ["de"]))
        #expect(
            news.items == [
                NewsItemAnswer(id: "a", language: "de", text: "Eins", updated: "2026-11-01T10:00:00Z"),
                NewsItemAnswer(id: "b", language: "fr", text: "Deux"),
            ])
        #expect(news.language == "de" && news.text == "Eins")
        #expect(try ElementFile(text: "elements: []\n", file: "e.yaml").news(languages: ["en"]) == nil)
        let bad =
            "elements: []\nnews:\n  - {id: a, text: {en: One}, colour: red}\n  - {id: a, text: {en: Two}}\n  - {text: {xx_YY: Three}}\n"
        #expect {
            try ElementFile(text: bad, file: "e.yaml")
        } throws: { error in
            let messages = (error as? ConfigError)?.diagnostics.map(\.description) ?? []
            return messages.contains { $0.hasPrefix("e.yaml:3:30: error: news.0.colour: unknown key") }
                && messages.contains { $0.contains("news.1.id: id 'a' given twice") }
                && messages.contains { $0.contains("news.2: missing 'id'") }
                && messages.contains { $0.contains("'xx_YY' is not a language tag") }
        }
    }

    @Test func jsonFilesReadTheSame() throws {
        let json = #"{"elements": [{"id": "a/b c", "input_type": "nfc", "content": {"en": {"name": "Tag"}}}]}"#
        let file = try ElementFile(text: json, file: "elements.json")
        #expect(file.answer(id: "a/b c", languages: [])?.name == "Tag")
    }

    @Test func everyProblemIsReportedWithItsPlace() {
        let text = """
            elements:
              - id: "1"
                input_type: qr
                content: { en: { name: A, titel: B } }
              - id: "1"
                input_type: barcode
                content: { en: { name: C } }
              - input_type: nfc
                colour: red
                content: { english: { name: D } }
            extra: 1
            """
        #expect {
            try ElementFile(text: text, file: "e.yaml")
        } throws: { error in
            let messages = (error as? ConfigError)?.diagnostics.map(\.description) ?? []
            return messages == [
                "e.yaml:3:17: error: elements.0.input_type: unknown input type 'qr'; expected beacon, barcode or nfc",
                "e.yaml:4:31: error: elements.0.content.en.titel: unknown key; expected one of name, description, url, image_url",
                "e.yaml:5:5: error: elements.1.id: id '1' given twice (first on line 2)",
                "e.yaml:8:5: error: elements.2: missing 'id'",
                "e.yaml:9:5: error: elements.2.colour: unknown key; expected one of id, input_type, content, updated",
                "e.yaml:10:16: error: elements.2.content.english: 'english' is not a language tag such as en, de or en-GB",
                "e.yaml:11:1: error: extra: unknown key; expected 'elements' or 'news'",
            ]
        }
    }

    @Test func aMissingFileIsOneLine() {
        #expect {
            try ElementFile(path: "/nonexistent/elements.yaml")
        } throws: { error in
            (error as? ConfigError)?.diagnostics.map(\.description) == [
                "/nonexistent/elements.yaml: error: no such file"
            ]
        }
    }
}
