import AsyncHTTPClient
import DAQTesting
import Foundation
import NIOCore
import Testing

@testable import DAQInfoManager

/// `daq resolver serve` as a user runs it: the protocol, the token, reloading on SIGHUP.
@Suite("daq resolver serve", .timeLimit(.minutes(20)))
struct ReferenceServerTests {
    /// GET `url`: status and body.
    static func get(_ url: String, token: String? = nil) throws -> (Int, String) {
        var request = try HTTPClient.Request(url: url)
        if let token { request.headers.add(name: "Authorization", value: "Bearer \(token)") }
        let response = try HTTPClient.shared.execute(request: request).wait()
        return (Int(response.status.code), response.body.map { String(buffer: $0) } ?? "")
    }

    @Test func answersElementsNewsAndUnknownIds() throws {
        let dir = try ResolverFixtures.scratch()
        let (server, url) = try ResolverFixtures.referenceServer(in: dir)
        defer { server.stop() }
        let (status, body) = try Self.get(url + "/v1/elements/04006381333931?lang=fr,de")
        #expect(status == 200)
        let answer = try JSONDecoder().decode(ElementAnswer.self, from: Data(body.utf8))
        #expect(
            answer
                == ElementAnswer(
                    element: Element(
                        id: "04006381333931", inputType: .barcode, content: [], updated: "2026-10-01T08:00:00Z"),
                    language: "de", content: ElementContent(name: "Bleistift", description: "HB-Bleistift")))
        #expect(try Self.get(url + "/v1/elements/unknown").0 == 404)
        let news = try Self.get(url + "/v1/news?lang=de-CH")
        #expect(news.0 == 200 && news.1.contains("Labor 2 ist am Sonntag"))
        // An id with a colon, percent-encoded as the resolver sends it.
        let beacon = try Self.get(
            url + "/v1/elements/" + PercentEncoding.component("ibeacon:E2C56DB5-DFFB-48D2-B060-D0F5A71096E0:1:2"))
        #expect(beacon.0 == 200 && beacon.1.contains("Lab entrance"))
    }

    @Test func aTokenIsRequiredWhenConfigured() throws {
        let dir = try ResolverFixtures.scratch()
        let (server, url) = try ResolverFixtures.referenceServer(
            in: dir, arguments: ["--token-env", "IM_TOKEN"], environment: ["IM_TOKEN": "t0ken"])
        defer { server.stop() }
        #expect(try Self.get(url + "/v1/news").0 == 401)
        #expect(try Self.get(url + "/v1/news", token: "wrong").0 == 401)
        #expect(try Self.get(url + "/v1/news", token: "t0ken").0 == 200)
    }

    @Test func sighupReloadsAndABrokenFileKeepsTheOldContent() throws {
        let dir = try ResolverFixtures.scratch()
        let one = "elements:\n  - {id: a, input_type: nfc, content: {en: {name: First}}}\n"
        let (server, url) = try ResolverFixtures.referenceServer(elements: one, in: dir)
        defer { server.stop() }
        let file = dir.appendingPathComponent("elements.yaml").path
        #expect(try Self.get(url + "/v1/elements/b").0 == 404)
        try "elements:\n  - {id: b, input_type: nfc, content: {en: {name: Second}}}\n".write(
            toFile: file, atomically: true, encoding: .utf8)
        server.send(SIGHUP)
        try server.waitForLine { $0.contains("reloaded") && $0.contains("1 element(s)") }
        #expect(try Self.get(url + "/v1/elements/b").1.contains("Second"))
        #expect(try Self.get(url + "/v1/elements/a").0 == 404)
        try "elements:\n  - {id: c, input_type: rocket, content: {en: {name: Third}}}\n".write(
            toFile: file, atomically: true, encoding: .utf8)
        server.send(SIGHUP)
        // The broken file is reported on stderr; b is still served. Signals pending together are
        // one: the next is sent only once this one has been handled.
        try server.waitForError(containing: "not reloaded")
        #expect(server.errorOutput.contains("unknown input type 'rocket'"))
        try
            "elements:\n  - {id: b, input_type: nfc, content: {en: {name: Second}}}\n  - {id: d, input_type: nfc, content: {en: {name: Fourth}}}\n"
            .write(toFile: file + ".next", atomically: true, encoding: .utf8)
        #expect(try Self.get(url + "/v1/elements/b").1.contains("Second"))
        try FileManager.default.removeItem(atPath: file)
        try FileManager.default.moveItem(atPath: file + ".next", toPath: file)
        server.send(SIGHUP)
        try server.waitForLine { $0.contains("reloaded") && $0.contains("2 element(s)") }
    }

    @Test func aBrokenFileStopsTheServerBeforeItStartsWithEveryProblemLocated() throws {
        let dir = try ResolverFixtures.scratch()
        let file = dir.appendingPathComponent("bad.yaml").path
        try "elements:\n  - id: x\n    input_type: laser\n    content: {en: {name: X, colour: red}}\n".write(
            toFile: file, atomically: true, encoding: .utf8)
        let server = try ServiceProcess.start(
            ServiceProcess.builtExecutable("daq"), ["resolver", "serve", "--data", file, "--port", "0"])
        #expect(try server.waitForExit() == 2)
        #expect(server.errorOutput.contains("bad.yaml:3:17: error: elements.0.input_type: unknown input type 'laser'"))
        #expect(server.errorOutput.contains("bad.yaml:4:29: error: elements.0.content.en.colour: unknown key"))
    }

    @Test func pathSegmentsArePercentEncoded() {
        #expect(PercentEncoding.component("a/b?c d") == "a%2Fb%3Fc%20d")
        #expect(PercentEncoding.component("Grüße") == "Gr%C3%BC%C3%9Fe")
        #expect(PercentEncoding.component("A-z_0.9~") == "A-z_0.9~")
        #expect(PercentEncoding.component("%41+&=") == "%2541%2B%26%3D")
    }
}
