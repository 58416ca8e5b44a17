import DAQCore
import Foundation

/// The settings of `infomanager.news`.
public struct NewsSettings: PluginConfiguration {
    @Setting(required: "The Info Manager service, e.g. ${RESOLVER_URL} or http://127.0.0.1:8080.") var baseURL: String
    @Setting("Language tags in priority order (`[en-GB, de]` or `en-GB,de`).") var languages = LanguageList(["en"])
    @Setting("Time between polls on the run clock; under `clock: virtual` the news is read once.")
    var interval = Seconds(60)
    @Setting("Time allowed for one request before it counts as failed.") var timeout = Seconds(2)
    @Setting("Further attempts after a failed request (unreachable, timeout, 5xx, 429).") var retries = 2
    @Setting("Environment variable holding a bearer token for the service.") var tokenEnv = ""

    public init() {}

    public func validate() throws {
        guard let url = URL(string: baseURL), let scheme = url.scheme?.lowercased(),
            ["http", "https"].contains(scheme),
            url.host?.isEmpty == false
        else {
            throw $baseURL.issue(
                "expected an http:// or https:// URL such as http://127.0.0.1:8080, found '\(baseURL)'")
        }
        if url.query != nil {
            throw $baseURL.issue("must not have a query; languages go in 'languages'")
        }
        if languages.tags.isEmpty {
            throw $languages.issue("name at least one language, such as en")
        }
        for tag in languages.tags where !ElementFileProblems.isLanguageTag(tag) {
            throw $languages.issue("'\(tag)' is not a language tag such as en, de or en-GB")
        }
        if !(interval.value >= 0.1) {
            throw $interval.issue("must be 100 ms or more, found \(interval.value) s")
        }
        if !(timeout.value > 0) { throw $timeout.issue("must be more than 0 s") }
        if !(0...10).contains(retries) {
            throw $retries.issue("expected 0 to 10, found \(retries)")
        }
        if !tokenEnv.isEmpty, ProcessInfo.processInfo.environment[tokenEnv] == nil {
            throw $tokenEnv.issue(
                "the environment variable \(tokenEnv) is not set; export the service's token in it")
        }
    }
}
