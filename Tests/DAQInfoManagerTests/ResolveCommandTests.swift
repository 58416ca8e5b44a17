import DAQCore
import DAQInfoManager
import Foundation
import Testing

/// `daq resolve ID` and `daq resolver news` against the reference server, and the library calls
/// under them.
@Suite("daq resolve and daq resolver news", .timeLimit(.minutes(20)))
struct ResolveCommandTests {
    static func object(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    @Test func resolvesOneIdWithItsStateInTextAndJSON() throws {
        let dir = try ResolverFixtures.scratch()
        let (server, url) = try ResolverFixtures.referenceServer(in: dir)
        defer { server.stop() }
        let text = try ResolverFixtures.daq([
            "resolve", "04006381333931", "--languages", "fr,de", "--url", url,
        ])
        #expect(text.status == 0, "\(text.err)")
        #expect(text.out.hasPrefix("RESOLVED 04006381333931 (barcode, de)\n"))
        #expect(
            text.out.contains("  name: Bleistift\n")
                && text.out.contains("  updated: 2026-10-01T08:00:00Z"))

        let json = try ResolverFixtures.daq(
            [
                "resolve", "ibeacon:E2C56DB5-DFFB-48D2-B060-D0F5A71096E0:1:2", "--type", "beacon", "--json",
            ],
            environment: ["RESOLVER_URL": url])
        #expect(json.status == 0, "\(json.err)")
        let o = try Self.object(json.out)
        #expect(o["state"] as? String == "RESOLVED" && o["input_type"] as? String == "beacon")
        #expect((o["data"] as? [String: Any])?["name"] as? String == "Lab entrance")
        #expect((o["data"] as? [String: Any])?["language"] as? String == "en")
    }

    /// A scanner sends an EAN-13 as printed; the element is stored under its GTIN-14. Digits that
    /// are no GTIN (a wrong check digit) are asked for as they are, and are not found.
    @Test func anEAN13AsScannedFindsItsGTIN14Element() throws {
        let dir = try ResolverFixtures.scratch()
        let (server, url) = try ResolverFixtures.referenceServer(in: dir)
        defer { server.stop() }
        let r = try ResolverFixtures.daq(["resolve", "4006381333931", "--languages", "de", "--url", url])
        #expect(r.status == 0, "\(r.err)")
        #expect(r.out.hasPrefix("RESOLVED 04006381333931 (barcode, de)\n"), "\(r.out)")
        let wrong = try ResolverFixtures.daq(["resolve", "4006381333932", "--url", url, "--json"])
        #expect(try Self.object(wrong.out)["state"] as? String == "NODATA", "\(wrong.out)")
        #expect(try Self.object(wrong.out)["id"] as? String == "4006381333932")
    }

    @Test func anUnknownIdIsNoDataAndExitsZero() throws {
        let dir = try ResolverFixtures.scratch()
        let (server, url) = try ResolverFixtures.referenceServer(in: dir)
        defer { server.stop() }
        let r = try ResolverFixtures.daq(["resolve", "nothing here", "--url", url, "--json"])
        #expect(r.status == 0)
        let o = try Self.object(r.out)
        #expect(
            o["state"] as? String == "NODATA" && o["data"] is NSNull
                && o["id"] as? String == "nothing here")
    }

    @Test func aMissingURLIsAUsageErrorNamingRESOLVER_URL() throws {
        let r = try ResolverFixtures.daq(["resolve", "123"])
        #expect(r.status == 64)
        #expect(r.err.contains("pass --url URL or set RESOLVER_URL"), "\(r.err)")
        let news = try ResolverFixtures.daq(["resolver", "news"])
        #expect(news.status == 64 && news.err.contains("RESOLVER_URL"))
    }

    @Test func anUnreachableServiceIsUnresolvedWithExitStatus3() throws {
        let port = try ResolverFixtures.closedPort()
        let r = try ResolverFixtures.daq([
            "resolve", "123", "--url", "http://127.0.0.1:\(port)", "--json",
        ])
        #expect(r.status == 3, "\(r.err)")
        let o = try Self.object(r.out)
        #expect(
            o["state"] as? String == "UNRESOLVED"
                && (o["error"] as? String)?.contains("connection refused") == true)
        #expect(r.err.contains("'123': cannot reach http://127.0.0.1:\(port)"))
        let news = try ResolverFixtures.daq(["resolver", "news", "--url", "http://127.0.0.1:\(port)"])
        #expect(news.status == 3)
    }

    @Test func anAnswerOfAnotherInputTypeIsAnErrorNamingTheId() throws {
        let dir = try ResolverFixtures.scratch()
        let (server, url) = try ResolverFixtures.referenceServer(in: dir)
        defer { server.stop() }
        let r = try ResolverFixtures.daq(["resolve", "04006381333931", "--type", "nfc", "--url", url])
        #expect(r.status == 4)
        #expect(
            r.err.contains(
                "'04006381333931': the service answered '04006381333931' with input_type barcode, not nfc"),
            "\(r.err)")
        #expect(r.out.isEmpty)
    }

    @Test func newsPrintsEveryItemInTheLanguageAsked() throws {
        let dir = try ResolverFixtures.scratch()
        let (server, url) = try ResolverFixtures.referenceServer(in: dir)
        defer { server.stop() }
        let text = try ResolverFixtures.daq(["resolver", "news", "--language", "de-CH", "--url", url])
        #expect(text.status == 0, "\(text.err)")
        #expect(text.out == "[news] de\n  Labor 2 ist am Sonntag wegen Wartung geschlossen\n")
        let json = try ResolverFixtures.daq(
            ["resolver", "news", "--json"], environment: ["RESOLVER_URL": url])
        let o = try Self.object(json.out)
        #expect(o["language"] as? String == "en-GB")
        #expect(
            (o["items"] as? [[String: Any]])?.first?["text"] as? String
                == "Lab 2 is closed for maintenance on Sunday")
    }

    @Test func noNewsIsSaidAndExitsZero() throws {
        let dir = try ResolverFixtures.scratch()
        let (server, url) = try ResolverFixtures.referenceServer(elements: "elements: []\n", in: dir)
        defer { server.stop() }
        let text = try ResolverFixtures.daq(["resolver", "news", "--url", url])
        #expect(text.status == 0 && text.out == "no news\n")
        #expect(
            try ResolverFixtures.daq(["resolver", "news", "--url", url, "--json"]).out
                == "{\"items\":[]}\n")
    }

    @Test func libraryCallsAnswerAsTheCommandsDo() async throws {
        let dir = try ResolverFixtures.scratch()
        let (server, url) = try ResolverFixtures.referenceServer(in: dir)
        defer { server.stop() }
        let service = try InfoManagerService(url: url, inputType: .barcode, languages: ["de"])
        let found = try await service.resolve("04006381333931")
        #expect(found.state == .resolved && found.answer?.name == "Bleistift")
        #expect(try await service.resolve("unknown").state == .noData)
        let news = try #require(try await service.news())
        #expect(news.items.map(\.language) == ["de"])
        let beacon = "ibeacon:E2C56DB5-DFFB-48D2-B060-D0F5A71096E0:1:2"
        await #expect(throws: InfoManagerError.self) { try await service.resolve(beacon) }
        do {
            _ = try await service.resolve(beacon)
        } catch {
            #expect(error.code == .badAnswer && error.id == beacon)
        }
        await service.shutdown()
        #expect(throws: InfoManagerError.self) { try InfoManagerService(url: "ftp://x") }
    }
}
