/// Text that may carry a secret, as a message may show it: a URL with credentials in it, or a
/// `*_env` key holding what should have been in the variable it names.
public enum SecretText {
    /// `url` with any user name and password replaced by `…` (`mqtt://…@broker:1883`), so an
    /// error about a URL never prints the credential someone put in it.
    public static func url(_ url: String) -> String {
        guard let scheme = url.range(of: "://") else { return url }
        let rest = url[scheme.upperBound...]
        let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex
        guard let at = rest[..<authorityEnd].lastIndex(of: "@") else { return url }
        return String(url[..<scheme.upperBound]) + "…" + String(rest[at...])
    }

    /// Whether `name` can name an environment variable: letters, digits and `_`, not starting
    /// with a digit. A value that cannot is likely the secret itself, and is not shown.
    public static func isVariableName(_ name: String) -> Bool {
        guard let first = name.utf8.first, !(48...57).contains(first) else { return false }
        return name.utf8.allSatisfy { ($0 | 0x20) >= 97 && ($0 | 0x20) <= 122 || (48...57).contains($0) || $0 == 95 }
    }
}
