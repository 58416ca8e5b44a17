import DAQInfoManager
import Foundation
import Testing
import Yams

/// The protocol document and the code must not drift apart.
@Suite(.timeLimit(.minutes(20))) struct OpenAPIDocumentTests {
    static let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../docs/infomanager-openapi.yaml").standardized.path

    @Test func theElementSchemaHasExactlyTheKeysTheCodeWrites() throws {
        let doc = try #require(
            try Yams.load(yaml: String(contentsOfFile: Self.path, encoding: .utf8)) as? [String: Any])
        let schemas = (doc["components"] as? [String: Any])?["schemas"] as? [String: Any]
        let properties = ((schemas?["Element"] as? [String: Any])?["properties"] as? [String: Any]) ?? [:]
        let element = Element(
            id: "1", inputType: .nfc,
            content: [("en", ElementContent(name: "n", description: "d", url: "u", imageURL: "i"))], updated: "t")
        let answer = ElementAnswer(element: element, language: "en", content: element.content[0].content)
        let json = try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(answer)) as? [String: Any])
        #expect(Set(properties.keys) == Set(json.keys))
        let paths = (doc["paths"] as? [String: Any]).map { Set($0.keys) }
        #expect(paths == ["/v1/elements/{id}", "/v1/news"])
    }
}
