import DAQCore
import Foundation

/// The settings of `infomanager.resolve`, as transform and as sink (which adds `path`).
public struct ResolverSettings: PluginConfiguration {
    /// How long answers stay fresh, how many are kept, and where they persist across runs.
    public struct Cache: Sendable {
        var ttl = Seconds(300)
        var maxEntries = 100_000
        /// Empty: the cache lives only as long as the run.
        var path = ""
    }

    var baseURL = ""
    var idField = "id"
    /// `nil`: ids of any type (a file mixing barcodes and beacons); nothing is sent or checked.
    var inputType: InputType?
    var languages = ["en"]
    var enabled = true
    var timeout = Seconds(2)
    var maxInFlight = 8
    var retries = 2
    var backoff = Seconds(0.1)
    var cache = Cache()
    var tokenEnv = ""
    var prefix = ""
    /// Sink only: the JSON Lines file of resolved elements.
    var path = ""

    enum CodingKeys: String, CodingKey {
        case baseURL = "base_url"
        case idField = "id_field"
        case inputType = "input_type"
        case languages, enabled, timeout
        case maxInFlight = "max_in_flight"
        case retries, backoff, cache
        case tokenEnv = "token_env"
        case prefix, path
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        baseURL = try c.decode(String.self, forKey: .baseURL)
        idField = try c.decodeIfPresent(String.self, forKey: .idField) ?? "id"
        if let raw = try c.decodeIfPresent(String.self, forKey: .inputType) {
            guard let type = InputType(rawValue: raw) else {
                throw ConfigIssue(key: "input_type", "unknown input type '\(raw)'; expected beacon, barcode or nfc")
            }
            inputType = type
        }
        languages = try Self.decodeLanguages(c) ?? ["en"]
        enabled = try c.decodeIfPresent(Bool.self, forKey: .enabled) ?? true
        timeout = try c.decodeIfPresent(Seconds.self, forKey: .timeout) ?? Seconds(2)
        maxInFlight = try c.decodeIfPresent(Int.self, forKey: .maxInFlight) ?? 8
        retries = try c.decodeIfPresent(Int.self, forKey: .retries) ?? 2
        backoff = try c.decodeIfPresent(Seconds.self, forKey: .backoff) ?? Seconds(0.1)
        tokenEnv = try c.decodeIfPresent(String.self, forKey: .tokenEnv) ?? ""
        prefix = try c.decodeIfPresent(String.self, forKey: .prefix) ?? ""
        path = try c.decodeIfPresent(String.self, forKey: .path) ?? ""
        if c.contains(.cache) { cache = try Self.decodeCache(c.superDecoder(forKey: .cache)) }
    }

    /// A list (`[en, de]`) or comma-separated text (`en,de`, as `${LANGUAGES}` gives it).
    private static func decodeLanguages(_ c: KeyedDecodingContainer<CodingKeys>) throws -> [String]? {
        guard c.contains(.languages) else { return nil }
        if let list = try? c.decode([String].self, forKey: .languages) { return list }
        let text = try c.decode(String.self, forKey: .languages)
        return LanguagePriority.parse(text)
    }

    private static func decodeCache(_ decoder: any Decoder) throws -> Cache {
        let c = try decoder.container(keyedBy: AnyKey.self)
        let known = ["ttl", "max_entries", "path"]
        for key in c.allKeys where !known.contains(key.stringValue) {
            throw ConfigIssue(
                key: "cache." + key.stringValue, "unknown key '\(key.stringValue)'; expected ttl, max_entries or path")
        }
        var cache = Cache()
        cache.ttl = try c.decodeIfPresent(Seconds.self, forKey: AnyKey("ttl")) ?? cache.ttl
        cache.maxEntries = try c.decodeIfPresent(Int.self, forKey: AnyKey("max_entries")) ?? cache.maxEntries
        cache.path = try c.decodeIfPresent(String.self, forKey: AnyKey("path")) ?? ""
        return cache
    }

    public func validate() throws {
        guard let url = URL(string: baseURL), let scheme = url.scheme?.lowercased(),
            ["http", "https"].contains(scheme),
            url.host?.isEmpty == false
        else {
            throw ConfigIssue(
                key: "base_url", "expected an http:// or https:// URL such as http://127.0.0.1:8080, found '\(baseURL)'"
            )
        }
        if url.query != nil { throw ConfigIssue(key: "base_url", "must not have a query; languages go in 'languages'") }
        if idField.isEmpty { throw ConfigIssue(key: "id_field", "must not be empty") }
        if languages.isEmpty { throw ConfigIssue(key: "languages", "name at least one language, such as en") }
        for tag in languages where !ElementFileProblems.isLanguageTag(tag) {
            throw ConfigIssue(key: "languages", "'\(tag)' is not a language tag such as en, de or en-GB")
        }
        if !(timeout.value > 0) { throw ConfigIssue(key: "timeout", "must be more than 0 s") }
        if !(1...1024).contains(maxInFlight) {
            throw ConfigIssue(key: "max_in_flight", "expected 1 to 1024, found \(maxInFlight)")
        }
        if !(0...10).contains(retries) { throw ConfigIssue(key: "retries", "expected 0 to 10, found \(retries)") }
        if !(backoff.value >= 0) { throw ConfigIssue(key: "backoff", "must be 0 s or more") }
        if !(cache.ttl.value >= 0) { throw ConfigIssue(key: "cache.ttl", "must be 0 s or more") }
        if cache.maxEntries < 1 { throw ConfigIssue(key: "cache.max_entries", "must be at least 1") }
        if !tokenEnv.isEmpty, ProcessInfo.processInfo.environment[tokenEnv] == nil {
            throw ConfigIssue(
                key: "token_env", "the environment variable \(tokenEnv) is not set; export the service's token in it")
        }
    }

    /// What cached answers depend on: a cache file made with other settings is not used.
    var cacheIdentity: String {
        "\(baseURL) \(inputType?.rawValue ?? "any") \(languages.joined(separator: ","))"
    }

    static let keys: [ConfigKey] = [
        .required("base_url", "string", "The Info Manager service, e.g. http://127.0.0.1:8080 (https:// works too)."),
        ConfigKey(
            "id_field", "string", default: "id",
            "The field holding the id to resolve; samples without it pass unchanged."),
        ConfigKey(
            "input_type", InputType.allCases.map(\.rawValue).joined(separator: " | "),
            "What kind of id it is: sent with every request, and an answer of another type is not used (UNRESOLVED, a warning naming the id). Unset: ids of any kind, nothing sent or checked."
        ),
        ConfigKey(
            "languages", "[string] or text", default: "[en]", "Language tags in priority order (`[en, de]` or `en,de`)."
        ),
        ConfigKey(
            "enabled", "bool", default: "true",
            "false: nothing is looked up; samples pass with resolve_state UNRESOLVED."),
        ConfigKey("timeout", "seconds", default: "2 s", "Time allowed for one request before it counts as failed."),
        ConfigKey("max_in_flight", "int", default: "8", "Requests open at once; more ids wait their turn."),
        ConfigKey(
            "retries", "int", default: "2", "Further attempts after a failed request (unreachable, timeout, 5xx, 429)."),
        ConfigKey(
            "backoff", "seconds", default: "100 ms", "Wait before the first retry; doubled each time, with jitter."),
        ConfigKey(
            "cache", "{ttl, max_entries, path}", default: "{ttl: 5m, max_entries: 100000}",
            "Answers kept for `ttl`; `path` keeps them in a file across runs. Stale ones answer while the service is down."
        ),
        ConfigKey("token_env", "string", "Environment variable holding a bearer token for the service."),
        ConfigKey(
            "prefix", "string", default: "\"\"", "Put before every added field name (`info.` gives info.name, …)."),
    ]
}
