import DAQCore
import Foundation

/// The connection keys the `mqtt` source and sink share: where the broker is and who connects.
///
/// The password never sits in YAML: `password_env` names the environment variable holding it.
public struct MQTTSettings: Sendable {
    var url: String
    var clientID: String?
    var username: String?
    var passwordEnv: String?
    var keepAlive: Seconds = 30
    /// As configured; `nil` leaves it to the component (see ``clientOptions(context:cleanByDefault:environment:)``).
    var cleanSession: Bool?
    var caFile: String?
    var connectTimeout: Seconds = 5
    var reconnectDelay: Seconds = 0.1
    var maxReconnectDelay: Seconds = 10

    enum CodingKeys: String, CodingKey {
        case url
        case clientID = "client_id"
        case username
        case passwordEnv = "password_env"
        case keepAlive = "keep_alive"
        case cleanSession = "clean_session"
        case caFile = "ca_file"
        case connectTimeout = "connect_timeout"
        case reconnectDelay = "reconnect_delay"
        case maxReconnectDelay = "max_reconnect_delay"
    }

    /// Decodes the shared keys from a component's configuration.
    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        url = try c.decode(String.self, forKey: .url)
        clientID = try c.decodeIfPresent(String.self, forKey: .clientID)
        username = try c.decodeIfPresent(String.self, forKey: .username)
        passwordEnv = try c.decodeIfPresent(String.self, forKey: .passwordEnv)
        keepAlive = try c.decodeIfPresent(Seconds.self, forKey: .keepAlive) ?? 30
        cleanSession = try c.decodeIfPresent(Bool.self, forKey: .cleanSession)
        caFile = try c.decodeIfPresent(String.self, forKey: .caFile)
        connectTimeout = try c.decodeIfPresent(Seconds.self, forKey: .connectTimeout) ?? 5
        reconnectDelay = try c.decodeIfPresent(Seconds.self, forKey: .reconnectDelay) ?? 0.1
        maxReconnectDelay = try c.decodeIfPresent(Seconds.self, forKey: .maxReconnectDelay) ?? 10
    }

    /// Checks values beyond their types.
    func validate() throws {
        if case .failure(let e) = MQTTClientOptions.parse(url: url) { throw ConfigIssue(key: "url", e.description) }
        if let id = clientID, id.isEmpty || id.utf8.count > 65535 {
            throw ConfigIssue(key: "client_id", "must be 1 to 65535 bytes")
        }
        if !(0...65535).contains(keepAlive.value) { throw ConfigIssue(key: "keep_alive", "must be 0 (off) to 65535 s") }
        if !(connectTimeout.value > 0) { throw ConfigIssue(key: "connect_timeout", "must be greater than 0") }
        if !(reconnectDelay.value > 0) { throw ConfigIssue(key: "reconnect_delay", "must be greater than 0") }
        if maxReconnectDelay < reconnectDelay {
            throw ConfigIssue(key: "max_reconnect_delay", "must not be less than reconnect_delay")
        }
        if let env = passwordEnv, env.isEmpty { throw ConfigIssue(key: "password_env", "name an environment variable") }
        if passwordEnv != nil && username == nil {
            throw ConfigIssue(key: "password_env", "a password needs a `username`")
        }
    }

    /// The keys of the sink, as `daq plugins describe` prints them.
    static let configKeys = keys(
        cleanSession: ConfigKey(
            "clean_session", "bool", default: "true",
            "false asks the broker to keep subscriptions and QoS 1 messages across connections."))

    /// The keys with the component's own `clean_session` line: the source and the sink
    /// default differently.
    static func keys(cleanSession: ConfigKey) -> [ConfigKey] {
        [
            .required("url", "string", "The broker: mqtt://HOST[:PORT] (1883) or mqtts://HOST[:PORT] (TLS, 8883)."),
            ConfigKey(
                "client_id", "string", default: "daq-<pipeline>-<component>-<host>",
                "MQTT client id: the pipeline's name, the component's and the host's first label, stable across runs."),
            ConfigKey("username", "string", "User name sent in CONNECT."),
            ConfigKey("password_env", "string", "Environment variable holding the password (never put it in YAML)."),
            ConfigKey(
                "keep_alive", "seconds", default: "30", "PINGREQ after this long without traffic; 0 turns it off."),
            cleanSession,
            ConfigKey(
                "ca_file", "string", "PEM certificate authorities to trust for mqtts:// (default: the system's)."),
            ConfigKey("connect_timeout", "seconds", default: "5", "Time allowed for TCP, TLS and CONNACK."),
            ConfigKey(
                "reconnect_delay", "seconds", default: "0.1",
                "First delay before reconnecting; doubled after each failed attempt."),
            ConfigKey("max_reconnect_delay", "seconds", default: "10", "Longest delay between reconnect attempts."),
        ]
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
    ///   - cleanByDefault: the clean-session flag when `clean_session` is not set.
    /// - Throws: ``TransportError`` when `password_env` names a variable that is not set.
    func clientOptions(
        context: PluginContext, cleanByDefault: Bool = true,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws -> MQTTClientOptions {
        guard case .success(let target) = MQTTClientOptions.parse(url: url) else {
            throw TransportError("bad url '\(url)'")
        }
        let host = Self.hostName
        var o = MQTTClientOptions(
            host: target.host, port: target.port, tls: target.tls,
            clientID: clientID ?? "daq-\(context.pipelineName)-\(context.componentName)-\(host)")
        o.caFile = caFile.map(context.resolve)
        o.keepAlive = UInt16(keepAlive.value.rounded())
        o.cleanSession = cleanSession ?? cleanByDefault
        o.username = username
        if let env = passwordEnv {
            guard let password = environment[env] else {
                throw TransportError("password_env names \(env), which is not set in the environment")
            }
            o.password = password
        }
        o.connectTimeout = connectTimeout.value
        o.reconnectDelay = reconnectDelay.value
        o.maxReconnectDelay = maxReconnectDelay.value
        return o
    }
}

/// A transport failure, with the message the user sees.
public struct TransportError: Error, CustomStringConvertible {
    /// The message the user sees.
    public var description: String
    init(_ d: String) { description = d }
}
