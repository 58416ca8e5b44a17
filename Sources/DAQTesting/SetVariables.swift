import Foundation

/// Variables already set in the test process's environment, for a test of a `*_env` setting
/// (a password, a token) to name.
///
/// The suite runs its tests in parallel, and `setenv` while another thread reads the
/// environment (a `Process` starting, `ProcessInfo`, a plugin reading its secret) is undefined
/// in glibc: `setenv` may move `environ` under the reader. So a test never sets a variable; it
/// names one that is there and gives the server the same value.
public enum SetVariables {
    /// `count` variables with distinct values that an HTTP bearer token or an MQTT password can
    /// carry as they are (letters, digits and `-._~+/`), by name; fewer when the environment
    /// holds fewer.
    public static func pick(_ count: Int) -> [(name: String, value: String)] {
        let allowed = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~+/")
        var seen: Set<String> = []
        var picked: [(name: String, value: String)] = []
        for (name, value) in ProcessInfo.processInfo.environment.sorted(by: { $0.key < $1.key })
        where !value.isEmpty && value.allSatisfy(allowed.contains) && seen.insert(value).inserted {
            picked.append((name, value))
            if picked.count == count { break }
        }
        return picked
    }
}
