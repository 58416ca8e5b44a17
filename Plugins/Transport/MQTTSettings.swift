import DAQCore
import Foundation

/// The connection keys the `mqtt` source and sink share, before their own `clean_session`:
/// where the broker is and who connects.
///
/// The password never sits in YAML: `password_env` names the environment variable holding it.
public struct MQTTSettings: SettingGroup {
    @Setting(required: "The broker: mqtt://HOST[:PORT] (1883) or mqtts://HOST[:PORT] (TLS, 8883).") var url: String
    @Setting(
        whenUnset: "daq-<pipeline>-<component>-<host>",
        "MQTT client id: the pipeline's name, the component's and the host's first label, stable across runs.")
    var clientID: String?
    @Setting("User name sent in CONNECT.") var username: String?
    @Setting("Environment variable holding the password (never put it in YAML).") var passwordEnv: String?
    @Setting("PINGREQ after this long without traffic; 0 turns it off.") var keepAlive = Seconds(30)

    public init() {}

    /// Checks values beyond their types.
    func validate() throws {
        if case .failure(let e) = MQTTClientOptions.parse(url: url) { throw $url.issue(e.description) }
        if let id = clientID, id.isEmpty || id.utf8.count > 65535 {
            throw $clientID.issue("must be 1 to 65535 bytes")
        }
        if !(0...65535).contains(keepAlive.value) { throw $keepAlive.issue("must be 0 (off) to 65535 s") }
        if let env = passwordEnv, env.isEmpty { throw $passwordEnv.issue("name an environment variable") }
        if passwordEnv != nil && username == nil {
            throw $passwordEnv.issue("a password needs a `username`")
        }
    }

    /// Whether the url asks for TLS (`mqtts://`); `false` for a url that does not parse.
    var isTLS: Bool {
        if case .success(let target) = MQTTClientOptions.parse(url: url) { return target.tls }
        return false
    }

    /// The first label of this machine's host name (`edge1` of `edge1.lab.example`), as the
    /// default client id and the payloads' `_host` name it.
    static var hostName: String {
        // gethostname, not ProcessInfo.hostName, which may wait for DNS on a machine without it.
        var name = [CChar](repeating: 0, count: 256)
        guard gethostname(&name, name.count) == 0 else { return "host" }
        let text = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return text.split(separator: ".").first.map(String.init) ?? "host"
    }

    /// Client options for this component.
    /// - Parameters:
    ///   - cleanSession: the component's clean-session flag.
    ///   - link: the component's TLS and reconnection keys.
    /// - Throws: ``TransportError`` when `password_env` names a variable that is not set.
    func clientOptions(
        context: PluginContext, cleanSession: Bool, link: MQTTLinkSettings,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws -> MQTTClientOptions {
        guard case .success(let target) = MQTTClientOptions.parse(url: url) else {
            throw TransportError("bad url '\(SecretText.url(url))'")
        }
        let host = Self.hostName
        var o = MQTTClientOptions(
            host: target.host, port: target.port, tls: target.tls,
            clientID: clientID ?? "daq-\(context.pipelineName)-\(context.componentName)-\(host)")
        o.caFile = link.caFile.map(context.resolve)
        o.certFile = link.certFile.map(context.resolve)
        o.keyFile = link.keyFile.map(context.resolve)
        o.keepAlive = UInt16(keepAlive.value.rounded())
        o.cleanSession = cleanSession
        o.username = username
        if let env = passwordEnv {
            guard let password = environment[env] else {
                throw TransportError("password_env names \(env), which is not set in the environment")
            }
            o.password = password
        }
        o.connectTimeout = link.connectTimeout.value
        o.reconnectDelay = link.reconnectDelay.value
        o.maxReconnectDelay = link.maxReconnectDelay.value
        o.maxPacketSize = link.maxPacketSize
        return o
    }
}

/// The connection keys the `mqtt` source and sink share, after their own `clean_session`: how
/// the link is secured and kept up.
public struct MQTTLinkSettings: SettingGroup {
    @Setting("PEM certificate authorities to trust for mqtts:// (default: the system's).") var caFile: String?
    @Setting(
        "PEM certificate (chain) this client shows a broker that asks for one (mqtts:// only; with key_file).")
    var certFile: String?
    @Setting("PEM private key of cert_file; keep it readable by its owner only.") var keyFile: String?
    @Setting("Time allowed for TCP, TLS and CONNACK.") var connectTimeout = Seconds(5)
    @Setting("First delay before reconnecting; doubled after each failed attempt.") var reconnectDelay = Seconds(0.1)
    @Setting("Longest delay between reconnect attempts.") var maxReconnectDelay = Seconds(10)
    @Setting(
        "The largest packet taken from the broker, bytes (1024 to 268435455); a larger one is a protocol error that drops the connection, not memory to fill."
    ) var maxPacketSize = 16 * 1024 * 1024

    public init() {}

    /// Checks values beyond their types; `tls` is whether the url is `mqtts://`.
    func validate(tls: Bool) throws {
        if certFile != nil && keyFile == nil { throw $certFile.issue("a client certificate needs its `key_file`") }
        if keyFile != nil && certFile == nil { throw $keyFile.issue("a private key needs its `cert_file`") }
        if let certFile, !tls {
            throw $certFile.issue("a client certificate ('\(certFile)') is shown only over TLS: use mqtts://")
        }
        if !(connectTimeout.value > 0) { throw $connectTimeout.issue("must be greater than 0") }
        if !(reconnectDelay.value > 0) { throw $reconnectDelay.issue("must be greater than 0") }
        if maxReconnectDelay < reconnectDelay {
            throw $maxReconnectDelay.issue("must not be less than reconnect_delay")
        }
        if !(1024...MQTTPacket.maxRemainingLength).contains(maxPacketSize) {
            throw $maxPacketSize.issue("must be 1024 to \(MQTTPacket.maxRemainingLength) bytes")
        }
    }
}

/// A transport failure, with the message the user sees.
public struct TransportError: Error, CustomStringConvertible {
    /// The message the user sees.
    public var description: String
    init(_ d: String) { description = d }
}
