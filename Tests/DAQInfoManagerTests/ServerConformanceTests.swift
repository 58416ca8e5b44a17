import AsyncHTTPClient
import DAQTesting
import Foundation
import NIOHTTP1
import Testing
import Yams

/// `daq resolver serve` and `docs/infomanager-openapi.yaml` agree: undeclared methods, bad
/// requests, news in a language that has none, a clean stop, and schemathesis (an independent
/// OpenAPI tester, PyPI) generating requests from the document.
@Suite("reference server against its document", .timeLimit(.minutes(20)))
struct ServerConformanceTests {
    static func request(_ url: String, method: HTTPMethod = .GET) throws -> (
        status: Int, headers: HTTPHeaders, body: String
    ) {
        let response = try HTTPClient.shared.execute(
            request: try HTTPClient.Request(url: url, method: method)
        ).wait()
        return (
            Int(response.status.code), response.headers, response.body.map { String(buffer: $0) } ?? ""
        )
    }

    /// `paths.<path>.get.responses` of the document.
    static func responses(_ path: String) throws -> [String: Any] {
        let doc = try #require(
            try Yams.load(yaml: String(contentsOfFile: OpenAPIDocumentTests.path, encoding: .utf8))
                as? [String: Any])
        let get = ((doc["paths"] as? [String: Any])?[path] as? [String: Any])?["get"] as? [String: Any]
        return try #require(get?["responses"] as? [String: Any])
    }

    @Test func methodsOtherThanGetAre405WithAllow() throws {
        let dir = try ResolverFixtures.scratch()
        let (server, url) = try ResolverFixtures.referenceServer(in: dir)
        defer { server.stop() }
        for path in ["/v1/elements/04006381333931", "/v1/news"] {
            for method in [HTTPMethod.POST, .PUT, .DELETE, .PATCH, .OPTIONS, .HEAD, .RAW(value: "QUERY")] {
                let r = try Self.request(url + path, method: method)
                #expect(r.status == 405, "\(method) \(path)")
                #expect(r.headers.first(name: "Allow") == "GET", "\(method) \(path)")
            }
        }
        for path in ["/v1/elements/{id}", "/v1/news"] {
            #expect(try Self.responses(path)["405"] != nil, "\(path)")
        }
    }

    @Test(arguments: [
        "/v1/elements/%ZZ",  // not percent-encoding
        "/v1/elements/%C3%28",  // percent-encoded, not UTF-8
        "/v1/elements/x?input_type=rocket",
    ])
    func badRequestsAreTheDocumented400WithAnError(path: String) throws {
        let dir = try ResolverFixtures.scratch()
        let (server, url) = try ResolverFixtures.referenceServer(in: dir)
        defer { server.stop() }
        let r = try RawHTTP.get(url, path)
        #expect(r.status == 400)
        #expect(r.headers["content-type"]?.hasPrefix("application/json") == true)
        let body = try JSONSerialization.jsonObject(with: Data(r.body.utf8)) as? [String: Any]
        #expect(body?["error"] is String, "\(r.body)")
        #expect(try Self.responses("/v1/elements/{id}")["400"] != nil)
    }

    /// The HTTP parser refuses a request whose line and headers pass 80 KB before any route
    /// sees it: 400 with an empty body, as the document says.
    @Test(arguments: ["/v1/elements/", "/v1/news?lang="])
    func aHundredKilobytePathIsTheDocumented400(prefix: String) throws {
        let dir = try ResolverFixtures.scratch()
        let (server, url) = try ResolverFixtures.referenceServer(in: dir)
        defer { server.stop() }
        let r = try RawHTTP.get(url, prefix + String(repeating: "a", count: 100_000))
        #expect(r.status == 400 && r.body.isEmpty)
        let path = prefix.hasPrefix("/v1/news") ? "/v1/news" : "/v1/elements/{id}"
        let bad = try #require(try Self.responses(path)["400"] as? [String: Any])
        #expect(bad["$ref"] as? String == "#/components/responses/BadRequest")
        let doc = try String(contentsOfFile: OpenAPIDocumentTests.path, encoding: .utf8)
        #expect(doc.contains("pass 80 KB (a 100 KB path)") && doc.contains("the body is empty"))
    }

    /// The document says: an item without the languages asked for answers in its own first
    /// language (200); 404 only when there is no news at all. The server does exactly that.
    @Test func newsInALanguageThatHasNoneIsAnsweredAsTheDocumentSays() throws {
        let dir = try ResolverFixtures.scratch()
        let (server, url) = try ResolverFixtures.referenceServer(in: dir)
        defer { server.stop() }
        let responses = try Self.responses("/v1/news")
        let ok = try #require(responses["200"] as? [String: Any])
        let schema = try #require(
            (((ok["content"] as? [String: Any])?["application/json"] as? [String: Any])?["schema"])
                as? [String: Any])
        let required = Set(schema["required"] as? [String] ?? [])
        let allowed = Set((schema["properties"] as? [String: Any])?.keys.map { $0 } ?? [])
        let r = try Self.request(url + "/v1/news?lang=ja")
        #expect(r.status == 200)
        let body = try #require(
            try JSONSerialization.jsonObject(with: Data(r.body.utf8)) as? [String: Any])
        #expect(required.isSubset(of: Set(body.keys)) && Set(body.keys).isSubset(of: allowed))
        #expect(body["language"] as? String == "en-GB")
        #expect(
            ((responses["404"] as? [String: Any])?["description"] as? String)?.contains(
                "no news in any language") == true)

        let (empty, emptyURL) = try ResolverFixtures.referenceServer(
            elements: "elements: []\n", in: try ResolverFixtures.scratch())
        defer { empty.stop() }
        #expect(try Self.request(emptyURL + "/v1/news?lang=ja").status == 404)
    }

    @Test func sigtermStopsTheServerWithoutAnError() throws {
        let dir = try ResolverFixtures.scratch()
        let (server, url) = try ResolverFixtures.referenceServer(in: dir)
        #expect(try Self.request(url + "/v1/news").status == 200)
        server.send(SIGTERM)
        #expect(try server.waitForExit() == 0)
        // Today's regression was `error … Waiting on child channel: CancellationError()`.
        #expect(server.errorOutput.hasSuffix("daq resolver: stopping\n"), "\(server.errorOutput)")
        #expect(!server.errorOutput.contains("error"), "\(server.errorOutput)")
    }

    /// schemathesis generates requests from the document (examples, boundary and invalid
    /// values, other methods) and checks every answer against it: status, content type,
    /// headers, body schema, 405 with `Allow`, invalid input rejected.
    @Test(.timeLimit(.minutes(20))) func schemathesisFindsNoDisagreement() throws {
        let dir = try ResolverFixtures.scratch()
        let (server, url) = try ResolverFixtures.referenceServer(in: dir)
        defer { server.stop() }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        // Through python3, as scripts/test.sh installs it: pip's script folder may not be on PATH.
        p.arguments = [
            "python3", "-c",
            "import sys; from schemathesis.cli import schemathesis; sys.exit(schemathesis())", "run",
            OpenAPIDocumentTests.path, "--url", url, "--checks", "all", "--max-examples", "25",
            "--seed", "23", "--phases", "examples,coverage,fuzzing", "--max-time", "30", "--workers", "2",
            "--generation-database", "none", "--no-color", "--report-dir",
            dir.appendingPathComponent("report").path,
        ]
        // Its crash cache (`.schemathesis/`) goes to the scratch folder, not the checkout.
        p.currentDirectoryURL = dir
        let ran = try p.runToEnd(timeout: 600)
        let log = ran.output + ran.errors
        try #require(
            !log.contains("No module named 'schemathesis'"),
            "schemathesis is missing: python3 -m pip install schemathesis==4.32.5 (scripts/test.sh installs it)"
        )
        #expect(ran.status == 0, "\(log)")
    }
}
