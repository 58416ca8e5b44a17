import DAQCore
import NIOCore
import NIOEmbedded
import NIOHTTP1
import Testing

@testable import DAQCLI

/// The live view's parts without a server: addresses, access, routes, decimation and the
/// hub's refusal to wait for a slow page.
@Suite("view parts")
struct ViewPartsTests {
    @Test(arguments: [
        ("8080", "127.0.0.1", 8080), ("0.0.0.0:0", "0.0.0.0", 0), ("localhost:9000", "localhost", 9000),
        ("[::1]:8080", "::1", 8080),
    ])
    func listenAddressesAreRead(text: String, host: String, port: Int) throws {
        #expect(try ViewListen.parse(text) == ViewListen(host: host, port: port))
    }

    @Test(arguments: ["", "http", "host:", ":80", "1.2.3.4:70000", "[::1]8080", "-1"])
    func badListenAddressesAreRefused(text: String) {
        #expect(throws: ViewListenError.self) { try ViewListen.parse(text) }
    }

    @Test func onlyLoopbackGoesWithoutAToken() throws {
        #expect(ViewAccess.choose(for: try .parse("8080"), token: nil) == .loopback)
        #expect(ViewAccess.choose(for: try .parse("127.0.0.1:8080"), token: "t") == .token("t"))
        guard case .token(let generated) = ViewAccess.choose(for: try .parse("0.0.0.0:8080"), token: nil) else {
            Issue.record("a view on 0.0.0.0 must take a token")
            return
        }
        #expect(generated.count == 32 && generated.allSatisfy(\.isHexDigit))
        #expect(ViewAccess.generateToken() != ViewAccess.generateToken())
    }

    @Test func requestsAreJudgedByTokenAndHost() {
        let token = ViewAccess.token("s3cret")
        #expect(token.judge(token: nil, host: "127.0.0.1:1") == .missing)
        #expect(token.judge(token: "s3cre", host: "127.0.0.1:1") == .refused)
        #expect(token.judge(token: "s3cret!", host: nil) == .refused)
        #expect(token.judge(token: "s3cret", host: "example.org") == .allowed)
        // A loopback view answers only requests addressed to this machine (no DNS rebinding).
        #expect(ViewAccess.loopback.judge(token: nil, host: "127.0.0.1:8080") == .allowed)
        #expect(ViewAccess.loopback.judge(token: nil, host: "[::1]:8080") == .allowed)
        #expect(ViewAccess.loopback.judge(token: nil, host: "localhost") == .allowed)
        #expect(ViewAccess.loopback.judge(token: nil, host: "evil.example:8080") == .refused)
        #expect(ViewAccess.loopback.judge(token: nil, host: nil) == .refused)
        #expect(ViewAccess.constantTimeEquals("abc", "abc") && !ViewAccess.constantTimeEquals("abc", "abd"))
        #expect(!ViewAccess.constantTimeEquals("abc", "abcd") && !ViewAccess.constantTimeEquals("", "a"))
    }

    @Test func routesAndTokensAreReadFromTheRequest() {
        func request(_ method: HTTPMethod, _ uri: String, _ headers: [(String, String)] = []) -> ViewRequest {
            ViewRequest(HTTPRequestHead(version: .http1_1, method: method, uri: uri, headers: HTTPHeaders(headers)))
        }
        #expect(request(.GET, "/?token=a%20b").route == .page)
        #expect(request(.GET, "/?token=a%20b").token == "a b")
        #expect(request(.GET, "/events", [("Authorization", "Bearer xyz")]).token == "xyz")
        #expect(request(.POST, "/control/pause").route == .control("pause"))
        #expect(!request(.POST, "/control/pause").fromPage)
        #expect(request(.POST, "/control/pause", [("X-DAQ-View", "1")]).fromPage)
        #expect(request(.GET, "/control/pause").route == .methodNotAllowed)
        #expect(request(.POST, "/").route == .methodNotAllowed)
        #expect(request(.GET, "/etc/passwd").route == .notFound)
        #expect(ViewRequest.controlCommand("step", query: ["path": "walk/return"]) == .success("step walk/return"))
        #expect(ViewRequest.controlCommand("step", query: [:]) == .failure(ViewRefusal("step needs ?path=STEP")))
        #expect(
            ViewRequest.controlCommand("step", query: ["path": "a\nstop"])
                == .failure(ViewRefusal("step needs ?path=STEP")))
        #expect(ViewRequest.controlCommand("reload", query: [:]) != .success("reload"))
    }

    @Test func bucketsKeepEveryFieldsLeastAndGreatestValue() {
        var d = ViewDecimator()
        d.describe(
            StreamDescriptor(fields: [FieldDescriptor("x", .double, unit: "g"), FieldDescriptor("label", .string)]))
        #expect(d.fields == ["x"])
        // 1 kHz for 0.2 s: four buckets of 50 samples, a spike up in the second, one down in the third.
        for i in 0..<200 {
            let x: Double = i == 70 ? 100 : i == 130 ? -100 : Double(i % 10)
            d.add(uptime: Double(i) / 1000, step: i < 100 ? "a" : "b", values: ["x": .double(x), "n": .int(Int64(i))])
        }
        let buckets = d.take(all: true)
        #expect(buckets.count == 4)
        #expect(d.fields == ["x", "n"])
        #expect(buckets.map { $0.max[0] } == [9, 100, 9, 9] as [Double?])
        #expect(buckets.map { $0.min[0] } == [0, 0, -100, 0] as [Double?])
        #expect(buckets.map { $0.min[1] } == [0, 50, 100, 150] as [Double?])
        #expect(buckets.map { $0.max[1] } == [49, 99, 149, 199] as [Double?])
        #expect(buckets.map(\.step) == ["a", "a", "b", "b"])
        #expect(d.take(all: true).isEmpty)
    }

    @Test func aFastRunsBucketsAreMergedWithoutLosingItsExtremes() {
        var d = ViewDecimator()
        // 10,000 buckets' worth of run-clock time in one frame, one extreme in the middle.
        for i in 0..<10_000 {
            d.add(
                uptime: Double(i) * ViewDecimator.bucketSeconds, step: "", values: ["v": .double(i == 5_000 ? -50 : 1)])
        }
        let buckets = d.take(all: true)
        #expect(
            buckets.count <= ViewDecimator.maxBucketsPerFrame && buckets.count > ViewDecimator.maxBucketsPerFrame / 2)
        #expect(buckets.compactMap { $0.min[0] }.min() == -50)
        #expect(buckets.first?.first == 0 && buckets.last?.last == 9_999 * ViewDecimator.bucketSeconds)
    }

    @Test func aPageThatIsNotWritableLosesFramesAndHoldsNothingBack() throws {
        let channel = EmbeddedChannel()
        let hub = ViewHub()
        let client = ViewClient(channel: channel)
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1)).wait()
        hub.publish(stats: ViewFrame.sse("stats", Array("{}".utf8)))
        hub.add(client)  // the snapshot (the stats so far) is always written
        channel.embeddedEventLoop.run()
        #expect(try channel.readOutbound(as: HTTPServerResponsePart.self) != nil)
        channel.isWritable = false
        for i in 0..<5 { hub.publish(log: ViewFrame.log(level: "info", text: "line \(i)", t: 0)) }
        channel.embeddedEventLoop.run()
        #expect(try channel.readOutbound(as: HTTPServerResponsePart.self) == nil)
        #expect(hub.framesDropped.load(ordering: .relaxed) == 5)
        channel.isWritable = true
        hub.publish(log: ViewFrame.log(level: "info", text: "again", t: 0))
        channel.embeddedEventLoop.run()
        #expect(try channel.readOutbound(as: HTTPServerResponsePart.self) != nil)
        #expect(hub.framesSent.load(ordering: .relaxed) == 2)
        _ = try? channel.finish()
    }
}
