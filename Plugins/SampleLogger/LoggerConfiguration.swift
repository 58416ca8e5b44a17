import DAQCore

/// The configuration shared by `logger.json`, `logger.jsonl` and `logger.csv`.
///
/// One type serves all three so the keys mean the same everywhere; `root` only appears in
/// `logger.json`'s ``LoggerConfiguration/keys(root:)``, so validation rejects it on the others
/// as an unknown key.
public struct LoggerConfiguration: PluginConfiguration {
    /// The shape of a `logger.json` file.
    public enum Root: String, ConfigEnum, Sendable {
        /// `{"startDate": …, "items": [ … ]}`, as `RSDRecordSampleLogger` writes it.
        case object
        /// `[ … ]`: the items alone.
        case array
    }

    /// The base output directory; files go into the run's directory under it.
    public var directory: String
    /// Stream name → file identifier; streams not listed use their own name.
    public var identifiers: [String: String]
    /// The JSON root (`logger.json` only).
    public var root: Root
    /// Fixed decimals for field doubles; `nil` writes the shortest text that reads back exactly.
    public var decimals: Int?
    /// Whether every flush also asks the kernel to put the bytes on disk.
    public var fsync: Bool

    enum CodingKeys: String, CodingKey { case directory, identifiers, root, decimals, fsync }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        directory = try c.decode(String.self, forKey: .directory)
        identifiers = try c.decodeIfPresent([String: String].self, forKey: .identifiers) ?? [:]
        root = try c.decodeIfPresent(Root.self, forKey: .root) ?? .object
        decimals = try c.decodeIfPresent(Int.self, forKey: .decimals)
        fsync = try c.decodeIfPresent(Bool.self, forKey: .fsync) ?? false
    }

    public func validate() throws {
        if directory.isEmpty { throw ConfigIssue(key: "directory", "must not be empty") }
        if let decimals, !(0...17).contains(decimals) {
            // 17 significant digits already hold any double; more would only pad with noise.
            throw ConfigIssue(key: "decimals", "must be between 0 and 17, found \(decimals)")
        }
        var seen: [String: String] = [:]
        for (stream, id) in identifiers.sorted(by: { $0.key < $1.key }) {
            let key = "identifiers.\(stream)"
            if let problem = LoggerConfiguration.problem(withIdentifier: id) { throw ConfigIssue(key: key, problem) }
            if let other = seen[id] {
                throw ConfigIssue(
                    key: key, "'\(id)' is also the identifier of stream '\(other)'; each stream needs its own file")
            }
            seen[id] = stream
        }
    }

    /// Why `id` cannot name a file in the run directory, or `nil` when it can.
    static func problem(withIdentifier id: String) -> String? {
        if id.isEmpty { return "must not be empty" }
        if id.contains("/") || id == "." || id == ".." { return "'\(id)' must be a file name, not a path" }
        // The engine writes manifest.json into the same directory.
        if id == "manifest" { return "'manifest' is reserved for the run's manifest.json" }
        return nil
    }

    /// The documented keys; `root` is offered by `logger.json` only.
    static func keys(root: Bool) -> [ConfigKey] {
        var keys: [ConfigKey] = [
            .required(
                "directory", "string",
                "Base directory: files go into OUT/<pipeline>-<UTC start>/, shared by the run's sinks."),
            ConfigKey(
                "identifiers", "{stream: string}",
                "File identifier per input stream: one file <identifier>.<ext> each; default: the stream name."),
        ]
        if root {
            keys.append(
                ConfigKey(
                    "root", Root.choices, default: "object", "object: {\"startDate\", \"items\"}; array: the items alone."))
        }
        keys += [
            ConfigKey("decimals", "int", "Fixed decimals for field doubles; default: the shortest exact text."),
            ConfigKey("fsync", "bool", default: "false", "fsync on every flush: delivered means on disk."),
        ]
        return keys
    }
}
