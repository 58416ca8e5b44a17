import DAQCore
import DAQInfoManager
import DAQStandard
import DAQTesting
import Dispatch
import Foundation
import Testing

/// `infomanager.news` against the reference server: what it emits, and that it polls at its
/// interval on the engine's wake-ups (no timer of its own).
@Suite("infomanager.news", .timeLimit(.minutes(20)))
struct NewsSourceTests {
    static let news = """
        elements: []
        news:
          - id: maintenance
            updated: "2026-10-01T08:00:00Z"
            text: { en-GB: "Lab 2 is closed on Sunday", de: "Labor 2 ist am Sonntag geschlossen" }
          - id: coffee
            text: { fr: "Café au labo 3" }
        """

    static func pipeline(_ url: String, clock: String, extra: String = "") -> String {
        """
        name: news-test
        clock: \(clock)
        sources:
          news: {type: infomanager.news, base_url: "\(url)", languages: [de]\(extra)}
        sinks:
          got: {type: collect, inputs: [news]}
        """
    }

    static func fields(_ samples: [Sample]) -> [[String: String]] {
        samples.map { s in s.fields.pairs.reduce(into: [:]) { $0[$1.0] = $1.1.stringValue ?? "null" } }
    }

    @Test func underTheVirtualClockTheNewsIsReadOnceAndEveryItemIsNew() throws {
        let dir = try ResolverFixtures.scratch()
        let (server, url) = try ResolverFixtures.referenceServer(elements: Self.news, in: dir)
        defer { server.stop() }
        let out = try PipelineHarness.run(
            yaml: Self.pipeline(url, clock: "virtual"), plugins: InfoManagerPlugins.all)
        #expect(out.result.state == .finished, "\(out.result.failure ?? "")")
        #expect(
            Self.fields(out.data("got")) == [
                [
                    "id": "maintenance", "language": "de", "text": "Labor 2 ist am Sonntag geschlossen",
                    "updated": "2026-10-01T08:00:00Z", "change": "new",
                ],
                // No German: the item's own first language, as the service chose it.
                [
                    "id": "coffee", "language": "fr", "text": "Café au labo 3", "updated": "null",
                    "change": "new",
                ],
            ])
    }

    @Test func anUnreachableServiceIsReportedAndTheRunGoesOn() throws {
        let port = try ResolverFixtures.closedPort()
        let out = try PipelineHarness.run(
            yaml: Self.pipeline("http://127.0.0.1:\(port)", clock: "virtual", extra: ", retries: 0"),
            plugins: InfoManagerPlugins.all)
        #expect(out.result.state == .finished)
        #expect(out.data("got").isEmpty)
        #expect(
            ResolverFixtures.messages(out).contains {
                $0.hasPrefix("news: cannot reach http://127.0.0.1:\(port)")
            })
    }

    @Test func pollsAtItsIntervalAndEmitsOnlyWhatChanged() throws {
        let dir = try ResolverFixtures.scratch()
        let (server, url) = try ResolverFixtures.referenceServer(elements: Self.news, in: dir)
        defer { server.stop() }
        let registry = try PluginRegistry(InfoManagerPlugins.all + [.collect])
        let spec = try PipelineLoader(registry: registry).load(
            text: Self.pipeline(url, clock: "realtime", extra: ", interval: 0.1"), file: "news.yaml")
        let changed = DispatchSemaphore(value: 0)
        let run = try PipelineRun(
            spec: spec, options: RunOptions(flushInterval: 0),
            observers: [ClosureObserver { _ in changed.signal() }])
        try run.start()
        defer {
            run.stop()
            _ = run.wait()
        }
        let sink = try #require(run.plugin(named: "got") as? CollectSink)
        func data() -> [Sample] { sink.samples.filter { $0.kind == .data } }
        /// Waits on the run's events (each batch the sink takes is one) until `done`.
        func wait(_ what: String, until done: () -> Bool) throws {
            let deadline = DispatchTime.now() + 20
            while !done() {
                if changed.wait(timeout: deadline) == .timedOut {
                    throw ServiceProcessError(
                        message: "no \(what) within 20 s", output: "\(Self.fields(data()))",
                        errors: server.errorOutput)
                }
            }
        }
        try wait("first poll") { data().count == 2 }
        // The change is seen only if the source is read again after its first answer: by the
        // engine's wake-up at the next interval, the source having no timer of its own.
        let file = dir.appendingPathComponent("elements.yaml").path
        try Self.news.replacingOccurrences(
            of: "Labor 2 ist am Sonntag geschlossen", with: "Labor 2 ist ab Montag offen"
        )
        .replacingOccurrences(
            of: "elements: []\nnews:\n", with: "elements: []\nnews:\n  - {id: new-one, text: {de: Neu}}\n"
        )
        .write(toFile: file, atomically: true, encoding: .utf8)
        server.send(SIGHUP)
        try server.waitForLine { $0.contains("reloaded") }
        try wait("poll after the change") { data().count == 4 }
        let later = Self.fields(Array(data().dropFirst(2)))
        #expect(
            later == [
                ["id": "new-one", "language": "de", "text": "Neu", "updated": "null", "change": "new"],
                [
                    "id": "maintenance", "language": "de", "text": "Labor 2 ist ab Montag offen",
                    "updated": "2026-10-01T08:00:00Z", "change": "edited",
                ],
            ])
        // The second batch came a whole interval after the first, on the run clock.
        let uptimes = data().map(\.uptime)
        #expect(uptimes[2] - uptimes[0] >= 0.1)
    }
}
