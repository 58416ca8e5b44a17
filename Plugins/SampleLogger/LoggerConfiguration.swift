import DAQCore

/// The configuration shared by `logger.json`, `logger.jsonl` and `logger.csv`: the keys of
/// `logger.jsonl` and `logger.csv` as they are, and of `logger.json` around its `root`.
///
/// One type serves all three so the keys mean the same everywhere. Its keys come in two groups
/// so that `logger.json` can declare `root` between them, where its documentation has it.
public struct LoggerConfiguration: PluginConfiguration {
    /// The shape of a `logger.json` file.
    public enum Root: String, ConfigEnum, Sendable {
        /// `{"startDate": …, "items": [ … ]}`, as `RSDRecordSampleLogger` writes it.
        case object
        /// `[ … ]`: the items alone.
        case array
    }

    var destination = LoggerDestination()
    var writing = LoggerWriting()

    public init() {}

    /// The base output directory; files go into the run's directory under it.
    public var directory: String { destination.directory }
    /// Stream name → file identifier; streams not listed use their own name.
    public var identifiers: [String: String] { destination.identifiers }
    /// Fixed decimals for field doubles; `nil` writes the shortest text that reads back exactly.
    public var decimals: Int? { writing.decimals }
    /// Whether every flush also asks the kernel to put the bytes on disk.
    public var fsync: Bool { writing.fsync }

    public func validate() throws {
        try destination.validate()
        try writing.validate()
    }

    /// Why `id` cannot name a file in the run directory, or `nil` when it can.
    static func problem(withIdentifier id: String) -> String? {
        if id.isEmpty { return "must not be empty" }
        if id.contains("/") || id == "." || id == ".." { return "'\(id)' must be a file name, not a path" }
        // The engine writes manifest.json into the same directory.
        if id == "manifest" { return "'manifest' is reserved for the run's manifest.json" }
        return nil
    }
}

/// Where a logger writes: the first keys of every logger.
struct LoggerDestination: SettingGroup {
    @Setting(required: "Base directory: files go into OUT/<pipeline>-<UTC start>/, shared by the run's sinks.")
    var directory: String
    @Setting(
        type: "{stream: string}",
        "File identifier per input stream: one file <identifier>.<ext> each; default: the stream name.")
    var identifiers: [String: String] = [:]

    init() {}

    func validate() throws {
        if directory.isEmpty { throw $directory.issue("must not be empty") }
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
}

/// How a logger writes: the last keys of every logger.
struct LoggerWriting: SettingGroup {
    @Setting("Fixed decimals for field doubles; default: the shortest exact text.") var decimals: Int?
    @Setting("fsync on every flush: delivered means on disk.") var fsync = false

    init() {}

    func validate() throws {
        if let decimals, !(0...17).contains(decimals) {
            // 17 significant digits already hold any double; more would only pad with noise.
            throw $decimals.issue("must be between 0 and 17, found \(decimals)")
        }
    }
}
