import DAQCore
import Foundation

/// The settings of `infomanager.news`.
public struct NewsSettings: PluginConfiguration {
    var baseURL = ""
    var languages = ["en"]
    var interval = Seconds(60)
    var timeout = Seconds(2)
    var retries = 2
    var tokenEnv = ""

    enum CodingKeys: String, CodingKey {
        case baseURL = "base_url"
        case languages, interval, timeout, retries
        case tokenEnv = "token_env"
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        baseURL = try c.decode(String.self, forKey: .baseURL)
        // A list (`[en, de]`) or comma-separated text (`en,de`, as `${LANGUAGES}` gives it).
        if let list = try? c.decode([String].self, forKey: .languages) {
            languages = list
        } else if c.contains(.languages) {
            languages = LanguagePriority.parse(try c.decode(String.self, forKey: .languages))
        }
        interval = try c.decodeIfPresent(Seconds.self, forKey: .interval) ?? interval
        timeout = try c.decodeIfPresent(Seconds.self, forKey: .timeout) ?? timeout
        retries = try c.decodeIfPresent(Int.self, forKey: .retries) ?? retries
        tokenEnv = try c.decodeIfPresent(String.self, forKey: .tokenEnv) ?? ""
    }

    public func validate() throws {
        guard let url = URL(string: baseURL), let scheme = url.scheme?.lowercased(),
            ["http", "https"].contains(scheme),
            url.host?.isEmpty == false
        else {
            throw ConfigIssue(
                key: "base_url",
                "expected an http:// or https:// URL such as http://127.0.0.1:8080, found '\(baseURL)'")
        }
        if url.query != nil {
            throw ConfigIssue(key: "base_url", "must not have a query; languages go in 'languages'")
        }
        if languages.isEmpty {
            throw ConfigIssue(key: "languages", "name at least one language, such as en")
        }
        for tag in languages where !ElementFileProblems.isLanguageTag(tag) {
            throw ConfigIssue(key: "languages", "'\(tag)' is not a language tag such as en, de or en-GB")
        }
        if !(interval.value >= 0.1) {
            throw ConfigIssue(key: "interval", "must be 100 ms or more, found \(interval.value) s")
        }
        if !(timeout.value > 0) { throw ConfigIssue(key: "timeout", "must be more than 0 s") }
        if !(0...10).contains(retries) {
            throw ConfigIssue(key: "retries", "expected 0 to 10, found \(retries)")
        }
        if !tokenEnv.isEmpty, ProcessInfo.processInfo.environment[tokenEnv] == nil {
            throw ConfigIssue(
                key: "token_env",
                "the environment variable \(tokenEnv) is not set; export the service's token in it")
        }
    }

    static let keys: [ConfigKey] = [
        .required(
            "base_url", "string",
            "The Info Manager service, e.g. ${RESOLVER_URL} or http://127.0.0.1:8080."),
        ConfigKey(
            "languages", "[string] or text", default: "[en]",
            "Language tags in priority order (`[en-GB, de]` or `en-GB,de`)."),
        ConfigKey(
            "interval", "seconds", default: "60 s",
            "Time between polls on the run clock; under `clock: virtual` the news is read once."),
        ConfigKey(
            "timeout", "seconds", default: "2 s",
            "Time allowed for one request before it counts as failed."),
        ConfigKey(
            "retries", "int", default: "2",
            "Further attempts after a failed request (unreachable, timeout, 5xx, 429)."),
        ConfigKey(
            "token_env", "string", "Environment variable holding a bearer token for the service."),
    ]
}
