import DAQCore
import DAQInfoManager
import DAQStandard
import DAQTesting
import Foundation
import Testing

/// What `infomanager.news` and `infomanager.resolve` declare against what they emit, each run
/// against a loopback service of the test's own: every field of every sample declared, with a
/// type that takes its value, in the order the plugin writes them.
@Suite("Info Manager descriptors")
struct InfoManagerDescriptorTests {
    static func problems(_ samples: [Sample], _ d: StreamDescriptor?) -> [String] {
        guard let d else { return ["no descriptor"] }
        return DescriptorFit.problems(samples, d)
    }

    static func inOrder(_ s: Sample, _ d: StreamDescriptor) -> Bool { DescriptorFit.inOrder(s, d) }

    @Test func newsDeclaresItsItems() throws {
        let body = """
            {"language": "de", "text": "Labor 2 ist zu", "items": [
              {"id": "maintenance", "language": "de", "text": "Labor 2 ist zu", "updated": "2026-10-01T08:00:00Z"},
              {"id": "coffee", "language": "fr", "text": "Café au labo 3"}]}
            """
        let server = try TestHTTPServer { _, _ in .respond(status: 200, body: Array(body.utf8)) }
        defer { server.stop() }
        let out = try PipelineHarness.run(
            yaml: NewsSourceTests.pipeline(server.url, clock: "virtual"), plugins: InfoManagerPlugins.all)
        #expect(out.result.state == .finished, "\(String(describing: out.result.error))")
        let asked = server.paths.count
        let d = try #require(try StreamGraph.describe(out.spec).outputs["news"])
        #expect(server.paths.count == asked, "describing asks the service nothing")
        let items = out.data("got")
        #expect(items.count == 2 && items.last?["updated"] == .null)
        #expect(Self.problems(items, d) == [] && items.allSatisfy { Self.inOrder($0, d) })
        #expect(d.fields.map(\.name) == ["id", "language", "text", "updated", "change"])
        #expect(d.timeBase == .run && d.rate == .irregular)
        #expect(d.origin == StreamOrigin(plugin: "infomanager.news", host: "127.0.0.1"))
    }

    @Test func resolveDeclaresTheFieldsItAddsUnderItsPrefix() throws {
        let dir = try ResolverFixtures.scratch()
        let server = try TestHTTPServer { path, _ in
            let id = TestHTTPServer.id(of: path)
            guard id == "k1" else { return .respond(status: 404, body: Array("{}".utf8)) }
            let element = """
                {"id": "k1", "input_type": "barcode", "language": "en", "name": "Thing", "description": "A thing",
                 "url": "https://example.com/k1", "image_url": "https://example.com/k1.png", "updated": "2026-01-01"}
                """
            return .respond(status: 200, body: Array(element.utf8))
        }
        defer { server.stop() }
        let out = try ResolverFixtures.resolve(
            ["k1", "missing", "k1"], settings: "base_url: \(server.url)\nprefix: info.", in: dir)
        #expect(out.result.state == .finished, "\(String(describing: out.result.error))")
        let graph = try StreamGraph.describe(out.spec)
        let input = try #require(graph.outputs["input"])
        let d = try #require(graph.outputs["resolve"])
        let added = ["resolve_state", "language", "name", "description", "url", "image_url", "updated"]
        #expect(d.fields.map(\.name) == input.fields.map(\.name) + added.map { "info." + $0 })
        #expect(d.fields.dropLast(added.count).elementsEqual(input.fields))
        #expect(d.fields.suffix(added.count).allSatisfy { $0.type == .string && $0.unit == nil })
        #expect(d.timeBase == input.timeBase && d.rate == input.rate && d.origin == input.origin)
        let samples = out.data("out")
        #expect(out.strings("info.resolve_state").prefix(2) == ["RESOLVED", "NODATA"])
        #expect(out.strings("info.image_url").first == "https://example.com/k1.png")
        #expect(Self.problems(samples, d) == [] && samples.allSatisfy { Self.inOrder($0, d) })
    }
}
