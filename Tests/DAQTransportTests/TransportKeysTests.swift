import DAQCore
import DAQTesting
import Testing

@testable import DAQTransport

/// Every key the `mqtt` source and sink describe is the key their configuration reads; the
/// connection keys are declared once for both, around each one's own `clean_session`.
@Suite("MQTT configuration keys", .timeLimit(.minutes(20)))
struct TransportKeysTests {
    static let connection = """
        url: mqtt://127.0.0.1:1884
        client_id: edge
        username: u
        password_env: PATH
        keep_alive: 10s
        clean_session: false
        ca_file: ca.pem
        connect_timeout: 2s
        reconnect_delay: 500ms
        max_reconnect_delay: 1m
        max_packet_size: 65536
        """

    /// The connection keys of `yaml` reached the configuration.
    func expectConnection(_ c: MQTTSettings, _ link: MQTTLinkSettings) {
        #expect(
            c.url == "mqtt://127.0.0.1:1884" && c.clientID == "edge" && c.username == "u" && c.passwordEnv == "PATH")
        #expect(c.keepAlive == Seconds(10) && link.caFile == "ca.pem" && link.connectTimeout == Seconds(2))
        #expect(link.reconnectDelay == Seconds(0.5) && link.maxReconnectDelay == Seconds(60))
        #expect(link.maxPacketSize == 65536)
    }

    @Test func theSinkReadsEveryDescribedKey() throws {
        let c = try PluginConfigLoader.decode(
            MQTTSink.Configuration.self,
            yaml: Self.connection
                + "\ntopic: t/{stream}\nqos: 0\nretain: true\nbatch_size: 5\nmarkers: true\nqueue: 7\nspool: s\n"
                + "drain_timeout: 3s\nmax_inflight: 9")
        expectConnection(c.connection, c.link)
        #expect(!c.cleanSession && c.topic == "t/{stream}" && c.qos == 0 && c.retain && c.batchSize == 5 && c.markers)
        #expect(c.queue == 7 && c.spool == "s" && c.drainTimeout == Seconds(3) && c.maxInflight == 9)
        #expect(MQTTSink.configKeys.count == 22)
    }

    @Test func theSourceReadsEveryDescribedKey() throws {
        let c = try PluginConfigLoader.decode(
            MQTTSource.Configuration.self,
            yaml: Self.connection
                + "\ntopics: [a/#]\nqos: 0\nbuffer: 5\ndedup: 6\ncount: 7\non_bad_payload: fail\norigin: false")
        expectConnection(c.connection, c.link)
        #expect(c.cleanSession == false && c.topics == ["a/#"] && c.qos == 0 && c.buffer == 5 && c.dedup == 6)
        #expect(c.count == 7 && c.onBadPayload == .fail && !c.origin)
        #expect(MQTTSource.configKeys.count == 20)
    }

    /// The shared keys sit where they did, with each component's own `clean_session` default.
    @Test func bothDescribeTheConnectionKeysInOneOrder() {
        let names = [
            "url", "client_id", "username", "password_env", "keep_alive", "clean_session", "ca_file", "cert_file",
            "key_file", "connect_timeout", "reconnect_delay", "max_reconnect_delay",
        ]
        #expect(Array(MQTTSink.configKeys.prefix(12).map(\.name)) == names)
        #expect(Array(MQTTSource.configKeys.prefix(12).map(\.name)) == names)
        let sink = MQTTSink.configKeys.first { $0.name == "clean_session" }
        let source = MQTTSource.configKeys.first { $0.name == "clean_session" }
        #expect(sink?.defaultValue == "true" && source?.defaultValue == "false at qos 1, true at qos 0")
        #expect(MQTTSink.configKeys.first { $0.name == "keep_alive" }?.defaultValue == "30 s")
    }

    /// Unset, the source keeps a session at QoS 1 and not at QoS 0; the sink starts clean.
    @Test func cleanSessionDefaultsPerComponent() throws {
        let context = PluginContext(componentName: "c", pipelineName: "p", baseDirectory: "", clock: .virtual)
        for (qos, clean) in [(1, false), (0, true)] {
            let c = try PluginConfigLoader.decode(
                MQTTSource.Configuration.self, yaml: "url: mqtt://127.0.0.1:1\ntopics: [a]\nqos: \(qos)")
            #expect(try MQTTSource(configuration: c, context: context).options.cleanSession == clean)
        }
        let sink = try PluginConfigLoader.decode(MQTTSink.Configuration.self, yaml: "url: mqtt://127.0.0.1:1")
        let options = try sink.connection.clientOptions(
            context: context, cleanSession: sink.cleanSession, link: sink.link)
        #expect(options.cleanSession)
    }
}
