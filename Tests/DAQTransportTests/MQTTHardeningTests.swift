import DAQCore
import DAQKit
import DAQTesting
import NIOCore
import Testing

@testable import DAQTransport

/// What a hostile or careless configuration or peer meets: no credential echoed, no server name
/// guessed from a first digit, no password sent in the clear without a word, no packet larger
/// than the configured limit held in memory.
@Suite("MQTT hardening", .timeLimit(.minutes(20)))
struct MQTTHardeningTests {
    static func options(_ host: String, tls: Bool = false, password: String? = "pw") -> MQTTClientOptions {
        var o = MQTTClientOptions(host: host, port: 1883, tls: tls, clientID: "c")
        o.password = password
        return o
    }

    @Test(arguments: [
        ("1password.example", false), ("3com.local", false), ("broker", false), ("10.0.0.7", true),
        ("127.0.0.1", true), ("::1", true), ("fe80::1", true), ("999.1.1.1", false),
    ])
    func aServerNameIsParsedNotGuessed(_ host: String, _ isAddress: Bool) {
        #expect(Self.options(host).hostIsAddress == isAddress, "\(host)")
    }

    @Test func aPasswordInTheClearToAnotherMachineIsAWarning() {
        #expect(Self.options("broker.lab.example").plainPasswordWarning?.contains("unencrypted") == true)
        #expect(Self.options("10.1.2.3").plainPasswordWarning?.contains("use mqtts://") == true)
        // Over TLS, without a password, or on this machine, nothing crosses the network in the clear.
        #expect(Self.options("broker.lab.example", tls: true).plainPasswordWarning == nil)
        #expect(Self.options("broker.lab.example", password: nil).plainPasswordWarning == nil)
        for local in ["localhost", "127.0.0.1", "127.8.9.10", "::1"] {
            #expect(Self.options(local).plainPasswordWarning == nil, "\(local)")
        }
    }

    @Test func aURLWithCredentialsIsRefusedWithoutEchoingThem() {
        guard case .failure(let e) = MQTTClientOptions.parse(url: "mqtt://ops:s3cr3t@broker:1883") else {
            Issue.record("credentials in the URL were taken")
            return
        }
        #expect(!e.description.contains("s3cr3t") && !e.description.contains("ops"), "\(e)")
        #expect(e.description.contains("mqtt://…@broker:1883"), "\(e)")
    }

    @Test func aPasswordWrittenWherePasswordEnvNamesAVariableIsNotEchoed() throws {
        let registry = try PluginRegistry(BuiltinPlugins.all)
        let yaml = """
            name: p
            sources:
              in: {type: generator, count: 1}
            sinks:
              out:
                type: mqtt
                inputs: [in]
                url: mqtt://127.0.0.1:1883
                topic: t
                username: ops
                password_env: "s3cr3t!pw"
            """
        do {
            _ = try PipelineLoader(registry: registry, environment: [:]).load(text: yaml, file: "p.yaml")
            Issue.record("loaded")
        } catch {
            let text = "\(error)"
            #expect(!text.contains("s3cr3t"), "\(text)")
            #expect(text.contains("p.yaml:11") && text.contains("sinks.out.password_env"), "\(text)")
            #expect(text.contains("expected the name of an environment variable"), "\(text)")
        }
    }

    @Test func maxPacketSizeIsReadCheckedAndGivenToTheClient() throws {
        let yaml = "url: mqtt://127.0.0.1:1883\ntopics: [t]\nmax_packet_size: 4096"
        let c = try PluginConfigLoader.decode(MQTTSource.Configuration.self, yaml: yaml)
        #expect(c.link.maxPacketSize == 4096)
        #expect(MQTTClientOptions(host: "h", port: 1, clientID: "c").maxPacketSize == 16 * 1024 * 1024)
        for bad in ["100", "268435456"] {
            #expect(throws: (any Error).self) {
                try PluginConfigLoader.decode(
                    MQTTSource.Configuration.self,
                    yaml: "url: mqtt://127.0.0.1:1883\ntopics: [t]\nmax_packet_size: \(bad)")
            }
        }
    }

    /// A client certificate comes with its key, and only over TLS, where a broker can ask for it.
    @Test func aClientCertificateNeedsItsKeyAndTLS() throws {
        let tls = "url: mqtts://127.0.0.1:8883\ntopics: [t]\n"
        let c = try PluginConfigLoader.decode(
            MQTTSource.Configuration.self, yaml: tls + "cert_file: c.pem\nkey_file: c.key")
        #expect(c.link.certFile == "c.pem" && c.link.keyFile == "c.key")
        let context = PluginContext(componentName: "c", pipelineName: "p", baseDirectory: "/etc/daq", clock: .virtual)
        let o = try c.connection.clientOptions(context: context, cleanSession: true, link: c.link)
        #expect(o.certFile == "/etc/daq/c.pem" && o.keyFile == "/etc/daq/c.key")
        let refused = [
            (tls + "cert_file: c.pem", "needs its `key_file`"), (tls + "key_file: c.key", "needs its `cert_file`"),
            ("url: mqtt://127.0.0.1:1883\ntopics: [t]\ncert_file: c.pem\nkey_file: c.key", "use mqtts://"),
        ]
        for (yaml, why) in refused {
            #expect {
                try PluginConfigLoader.decode(MQTTSource.Configuration.self, yaml: yaml)
            } throws: { "\($0)".contains(why) }
        }
    }

    @Test func aPacketOverTheLimitIsAProtocolErrorBeforeItsBodyArrives() throws {
        let publish = MQTTPublish(
            topic: "t", payload: ByteBuffer(string: String(repeating: "x", count: 5000)), qos: .atMostOnce,
            retain: false, duplicate: false, packetID: nil)
        var whole = ByteBuffer()
        try MQTTPacket.publish(publish).write(to: &whole)
        // Only the fixed header has come: the limit is known from the length alone.
        var header = whole.getSlice(at: whole.readerIndex, length: 3)!
        #expect(throws: MQTTProtocolError.self) { try MQTTPacket.parse(from: &header, maxPacketSize: 4096) }
        var fits = whole
        #expect(try MQTTPacket.parse(from: &fits, maxPacketSize: 8192) == .publish(publish))
    }
}
