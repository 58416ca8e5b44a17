import DAQCore
import Foundation

/// The settings `infomanager.resolve` takes as transform and as sink: how to reach the service,
/// what to ask it, and what to keep.
public struct ResolverSettings: SettingGroup {
    /// How long answers stay fresh, how many are kept, and where they persist across runs.
    public struct Cache: SettingGroup {
        @Setting("How long an answer stays fresh.") var ttl = Seconds(300)
        @Setting("Answers kept; the oldest go first.") var maxEntries = 100_000
        @Setting(type: "path", "A file that keeps answers across runs; unset, they last as long as the run.") var path =
            ""

        public init() {}
    }

    @Setting(required: "The Info Manager service, e.g. http://127.0.0.1:8080 (https:// works too).") var baseURL: String
    @Setting("The field holding the id to resolve; samples without it pass unchanged.") var idField = "id"
    @Setting(
        key: "input_type",
        "What kind of id it is: sent with every request, and an answer of another type is not used (UNRESOLVED, a warning naming the id). Unset: ids of any kind, nothing sent or checked."
    )
    var inputTypeKey: InputTypeKey?
    @Setting("Language tags in priority order (`[en, de]` or `en,de`).") var languages = LanguageList(["en"])
    @Setting("false: nothing is looked up; samples pass with resolve_state UNRESOLVED.") var enabled = true
    @Setting("Time allowed for one request before it counts as failed.") var timeout = Seconds(2)
    @Setting("Requests open at once; more ids wait their turn.") var maxInFlight = 8
    @Setting("Further attempts after a failed request (unreachable, timeout, 5xx, 429).") var retries = 2
    @Setting("Wait before the first retry; doubled each time, with jitter.") var backoff = Seconds(0.1)
    @Setting(
        "Answers kept for `ttl`; `path` keeps them in a file across runs. Stale ones answer while the service is down."
    )
    var cache = Cache()
    @Setting("Environment variable holding a bearer token for the service.") var tokenEnv = ""

    public init() {}

    /// `nil`: ids of any type (a file mixing barcodes and beacons); nothing is sent or checked.
    var inputType: InputType? { inputTypeKey?.type }

    public func validate() throws {
        guard let url = URL(string: baseURL), let scheme = url.scheme?.lowercased(),
            ["http", "https"].contains(scheme),
            url.host?.isEmpty == false
        else {
            throw $baseURL.issue(
                "expected an http:// or https:// URL such as http://127.0.0.1:8080, found '\(baseURL)'"
            )
        }
        if url.query != nil { throw $baseURL.issue("must not have a query; languages go in 'languages'") }
        if idField.isEmpty { throw $idField.issue("must not be empty") }
        if languages.tags.isEmpty { throw $languages.issue("name at least one language, such as en") }
        for tag in languages.tags where !ElementFileProblems.isLanguageTag(tag) {
            throw $languages.issue("'\(tag)' is not a language tag such as en, de or en-GB")
        }
        if !(timeout.value > 0) { throw $timeout.issue("must be more than 0 s") }
        if !(1...1024).contains(maxInFlight) {
            throw $maxInFlight.issue("expected 1 to 1024, found \(maxInFlight)")
        }
        if !(0...10).contains(retries) { throw $retries.issue("expected 0 to 10, found \(retries)") }
        if !(backoff.value >= 0) { throw $backoff.issue("must be 0 s or more") }
        if !(cache.ttl.value >= 0) { throw cache.$ttl.issue("must be 0 s or more") }
        if cache.maxEntries < 1 { throw cache.$maxEntries.issue("must be at least 1") }
        if !tokenEnv.isEmpty, ProcessInfo.processInfo.environment[tokenEnv] == nil {
            throw $tokenEnv.issue(
                "the environment variable \(tokenEnv) is not set; export the service's token in it")
        }
    }

    /// What cached answers depend on: a cache file made with other settings is not used.
    var cacheIdentity: String {
        "\(baseURL) \(inputType?.rawValue ?? "any") \(languages.tags.joined(separator: ","))"
    }
}

/// The `input_type` key: an ``InputType``, refused with the accepted ones when unknown.
struct InputTypeKey: ConfigValue {
    var type: InputType

    static var configType: String { InputType.allCases.map(\.rawValue).joined(separator: " | ") }
    var configText: String? { type.rawValue }

    init(from decoder: any Decoder) throws {
        let raw = try decoder.singleValueContainer().decode(String.self)
        guard let type = InputType(rawValue: raw) else {
            let key = decoder.codingPath.map(\.stringValue).joined(separator: ".")
            throw ConfigIssue(key: key, "unknown input type '\(raw)'; expected beacon, barcode or nfc")
        }
        self.type = type
    }
}

/// Language tags in priority order, written as a list (`[en, de]`) or as comma-separated text
/// (`en,de`, as `${LANGUAGES}` gives it).
public struct LanguageList: ConfigValue, Sendable {
    /// The tags, first preferred.
    public var tags: [String]

    public static var configType: String { "[string] or text" }
    public var configText: String? { tags.configText }

    init(_ tags: [String]) { self.tags = tags }

    public init(from decoder: any Decoder) throws {
        if let list = try? [String](from: decoder) {
            tags = list
        } else {
            tags = LanguagePriority.parse(try decoder.singleValueContainer().decode(String.self))
        }
    }
}
