import DAQCore
import DAQTesting
import Foundation
import Synchronization
import Testing

/// A service that is down, slow, failing, or answering nonsense: samples pass, failures are
/// counted and reported, nothing hangs.
@Suite("infomanager.resolve when the service misbehaves", .timeLimit(.minutes(20)))
struct ResolverFailureTests {
    @Test func connectionRefusedPassesSamplesUnresolvedAfterOneFailure() throws {
        let dir = try ResolverFixtures.scratch()
        let port = try ResolverFixtures.closedPort()
        let ids = (0..<200).map { "id-\($0)" }
        let out = try ResolverFixtures.resolve(
            ids, settings: "base_url: http://127.0.0.1:\(port)\nretries: 1\nbackoff: 10ms", in: dir)
        #expect(out.result.state == .finished)
        #expect(out.data("out").count == 200)
        #expect(out.strings("resolve_state").allSatisfy { $0 == "UNRESOLVED" })
        let messages = ResolverFixtures.messages(out)
        // Refused at once, not retried by the connection pool until the timeout.
        #expect(
            messages.contains {
                $0.contains("cannot reach http://127.0.0.1:\(port): connection refused")
                    && $0.contains("until it answers")
            })
        // The outage is noticed once; later ids are not each asked and timed out.
        #expect(messages.filter { $0.contains("cannot reach") }.count == 1)
        #expect(messages.contains { $0.contains("answered without asking during an outage") })
        #expect(out.result.stages.first { $0.name == "resolve" }!.errors >= 1)
    }

    @Test func aSilentServiceTimesOut() throws {
        let dir = try ResolverFixtures.scratch()
        let server = try TestHTTPServer { _, _ in .silent }
        defer { server.stop() }
        let out = try ResolverFixtures.resolve(
            ["a", "b"], settings: "base_url: \(server.url)\ntimeout: 300ms\nretries: 0", in: dir)
        #expect(out.result.state == .finished)
        #expect(out.strings("resolve_state") == ["UNRESOLVED", "UNRESOLVED"])
        #expect(ResolverFixtures.messages(out).contains { $0.contains("no answer from \(server.url) within 0.3 s") })
    }

    @Test func serverErrorsAreRetriedWithBackoff() throws {
        let dir = try ResolverFixtures.scratch()
        // The first two requests fail with 500, the third answers.
        let server = try TestHTTPServer { path, n in
            n <= 2
                ? .respond(status: 500, body: Array("{}".utf8))
                : .respond(status: 200, body: TestHTTPServer.element(TestHTTPServer.id(of: path)))
        }
        defer { server.stop() }
        // A generous timeout: the test is about retrying 5xx answers, not about speed under load.
        let out = try ResolverFixtures.resolve(
            ["x"], settings: "base_url: \(server.url)\nretries: 2\nbackoff: 10ms\ntimeout: 20s", in: dir)
        #expect(out.strings("resolve_state") == ["RESOLVED"], "\(ResolverFixtures.messages(out))")
        #expect(server.paths.count == 3, "\(server.paths) \(ResolverFixtures.messages(out))")
    }

    @Test func serverErrorsBeyondTheRetriesLeaveTheSampleUnresolved() throws {
        let dir = try ResolverFixtures.scratch()
        let server = try TestHTTPServer { _, _ in .respond(status: 503, body: []) }
        defer { server.stop() }
        let out = try ResolverFixtures.resolve(
            ["x"], settings: "base_url: \(server.url)\nretries: 1\nbackoff: 10ms", in: dir)
        #expect(out.strings("resolve_state") == ["UNRESOLVED"])
        #expect(server.paths.count == 2)
        #expect(ResolverFixtures.messages(out).contains { $0.contains("HTTP 503") })
    }

    @Test(arguments: [
        ("not json", "not an element: not JSON"),
        (#"{"id":"x","input_type":"barcode"}"#, "not an element: missing 'language'"),
        (#"{"id":"y","input_type":"barcode","language":"en"}"#, "answered for id 'y', not 'x'"),
        (#"{"id":"x","input_type":"rocket","language":"en"}"#, "not an element: bad 'input_type'"),
    ])
    func malformedAnswersAreReportedNotRetried(body: String, message: String) throws {
        let dir = try ResolverFixtures.scratch()
        let server = try TestHTTPServer { _, _ in .respond(status: 200, body: Array(body.utf8)) }
        defer { server.stop() }
        let out = try ResolverFixtures.resolve(["x"], settings: "base_url: \(server.url)\nretries: 3", in: dir)
        #expect(out.strings("resolve_state") == ["UNRESOLVED"])
        #expect(server.paths.count == 1)
        #expect(ResolverFixtures.messages(out).contains { $0.contains(message) }, "\(ResolverFixtures.messages(out))")
    }

    @Test func aTenMegabyteAnswerIsRejectedWithoutBeingRead() throws {
        let dir = try ResolverFixtures.scratch()
        let declared = try TestHTTPServer { _, _ in
            .respond(status: 200, body: [UInt8](repeating: 0x20, count: 10 << 20))
        }
        let streamed = try TestHTTPServer { _, _ in .stream(bytes: 10 << 20) }
        defer {
            declared.stop()
            streamed.stop()
        }
        for server in [declared, streamed] {
            let out = try ResolverFixtures.resolve(["x"], settings: "base_url: \(server.url)", in: dir)
            #expect(out.strings("resolve_state") == ["UNRESOLVED"])
            #expect(ResolverFixtures.messages(out).contains { $0.contains("more than 1048576 bytes") })
        }
    }

    @Test func requestsInFlightNeverExceedTheLimit() throws {
        let dir = try ResolverFixtures.scratch()
        let open = OpenCounter()
        let server = try TestHTTPServer { path, _ in
            open.enter()
            defer { open.leave() }
            return .respond(status: 200, body: TestHTTPServer.element(TestHTTPServer.id(of: path)))
        }
        defer { server.stop() }
        let ids = (0..<300).map { "id-\($0)" }
        // No request may time out and be sent again, however loaded the machine: each id once.
        let out = try ResolverFixtures.resolve(
            ids, settings: "base_url: \(server.url)\nmax_in_flight: 4\ntimeout: 600 s", in: dir)
        #expect(out.strings("resolve_state").allSatisfy { $0 == "RESOLVED" })
        #expect(out.strings("id") == ids, "order kept")
        #expect(server.paths.count == 300)
        #expect(open.peak <= 4)
    }
}

/// Counts requests being answered at once.
final class OpenCounter: Sendable {
    private let state = Mutex<(now: Int, peak: Int)>((0, 0))
    var peak: Int { state.withLock { $0.peak } }
    func enter() {
        state.withLock {
            $0.now += 1
            $0.peak = max($0.peak, $0.now)
        }
    }
    func leave() { state.withLock { $0.now -= 1 } }
}
