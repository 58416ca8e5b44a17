import DAQCLI
import DAQCore
import DAQKit
import DAQTesting
import Foundation

/// Plugins that talk to a server: the Info Manager resolver against the reference server
/// (`daq resolver serve`), MQTT against a real Mosquitto. Each stall case points the plugin at
/// a ``SilentServer`` instead, which takes connections and never answers.
extension ConformanceTable {
    static let ids = ["04006381333931", "09501101530003", "4006381333931", "unknown-id"]

    /// `daq resolver serve` with the shipped elements, on a free port.
    static func referenceServer() throws -> (ServiceProcess, url: String) {
        let server = try ServiceProcess.start(
            ServiceProcess.builtExecutable("daq"),
            ["resolver", "serve", "--data", Fixtures.repo("recordings/elements.yaml"), "--port", "0"])
        let line = try server.waitForLine { $0.hasPrefix("daq resolver: serving") }
        return (server, String(line.split(separator: " ").last ?? ""))
    }

    static func resolver(_ kind: PluginKind) -> Entry {
        Entry.prepared(kind, "infomanager.resolve") {
            let (server, url) = try referenceServer()
            let silent = try SilentServer()
            let refused = SilentServer.refusedPort()
            // The sink writes the resolved elements to a file of its own.
            let path = kind == .sink ? "\npath: ${CONFORMANCE_DIR}/elements.jsonl" : ""
            let spec = ConformanceSpec(
                config: "base_url: \(url)\nid_field: id" + path, input: { Fixtures.ids(ids, count: $0) },
                drain: kind == .sink ? .consumed : .passThrough,
                failure: FailureCase(
                    config: "base_url: http://127.0.0.1:\(refused)\nid_field: id\nretries: 0" + path, report: .warning,
                    messageContains: "connection refused"),
                stall: StallCase(
                    config:
                        "base_url: http://127.0.0.1:\(silent.port)\nid_field: id\ntimeout: 3600 s\nretries: 0\nmax_in_flight: 4"
                        + path,
                    inputCount: 2_000, signal: .backpressure),
                hugeCount: 200_000)
            return Prepared(spec: spec, keepAlive: [ServerBox(server), silent])
        }
    }

    static var services: [Entry] {
        [resolver(.transform), resolver(.sink), mqttSink, mqttSource]
    }

    static let mqttSink = Entry.prepared(.sink, "mqtt") {
        let broker = try Mosquitto()
        try broker.start()
        let refused = SilentServer.refusedPort()
        let spec = ConformanceSpec(
            // A long drain_timeout: acknowledging the huge batch must not race a loaded machine.
            config: "url: \(broker.url)\ntopic: conformance/sink\nqos: 1\ndrain_timeout: 100", drain: .consumed,
            failure: FailureCase(
                config: "url: mqtt://127.0.0.1:\(refused)\ntopic: t\nqos: 1\ndrain_timeout: 0.2\nconnect_timeout: 0.2",
                report: .deliveryFailed),
            hugeCount: 200_000,
            checkOutput: { outcome in
                outcome.subject.delivered == outcome.fed
                    ? nil : "the broker acknowledged \(outcome.subject.delivered) of \(outcome.fed)"
            },
            reasons: [
                .neverBlocks:
                    "start() waits, by design, up to connect_timeout for the broker's first answer, so a silent broker holds the run's start rather than a running stage (found with a silent port: start blocked for the whole timeout); publishing after that is asynchronous on NIO"
            ])
        return Prepared(spec: spec, keepAlive: [broker])
    }

    /// Retained messages on a topic each, published once by the `mqtt` sink: whoever subscribes
    /// later receives every one, so no publish races a subscription.
    static let mqttSource = Entry.prepared(.source, "mqtt") {
        let broker = try Mosquitto()
        try broker.start()
        let count = 200
        let publish = try PipelineHarness.run(
            yaml: """
                clock: virtual
                sources: {gen: {type: generator, count: \(count)}}
                sinks: {pub: {type: mqtt, inputs: [gen], url: "\(broker.url)", topic: "conformance/source/{seq}", qos: 1, retain: true}}
                """, plugins: BuiltinPlugins.all)
        guard publish.result.state == .finished else {
            throw Mosquitto.BrokerError(description: "publishing: \(publish.result.error.map { "\($0)" } ?? "")")
        }
        let spec = ConformanceSpec(
            config: "url: \(broker.url)\ntopics: [conformance/source/#]\nqos: 1", drain: .exactly(count),
            stall: StallCase(
                config: "url: \(broker.url)\ntopics: [conformance/source/#]\nqos: 1", signal: .firstSample),
            emptyConfig: "url: \(broker.url)\ntopics: [conformance/nothing/#]",
            live: LiveInput(count: count) { _ in },
            clock: .realtime,
            reasons: [
                .errorsAreEvents:
                    "a broker that goes away is retried, never fatal; BrokerFailureTests cover reconnects",
                .hugeBatch:
                    "a million retained messages would outlive the test in the broker; the mqtt sink takes the huge batch",
            ])
        return Prepared(spec: spec, keepAlive: [broker])
    }
}

/// Keeps a ``ServiceProcess`` running while a check runs, and stops it after.
final class ServerBox {
    let server: ServiceProcess
    init(_ server: ServiceProcess) { self.server = server }
    deinit { server.stop() }
}
