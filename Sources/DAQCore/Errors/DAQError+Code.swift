extension DAQError {
    /// What kind of failure an error is: a stable name to match on.
    ///
    /// A struct, not an enum, on purpose: codes are added without breaking a `switch` in
    /// programs that match on them (they end with `default:`), and a plugin may name its own,
    /// `DAQError.Code(rawValue: "lab.overrange")`, preferably under a prefix of its own.
    /// ``rawValue`` is what `--events jsonl` and logs would print; it never changes for a code.
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The code's stable name, `bad_input`.
        public let rawValue: String

        /// A code by name; the built-in ones are the static members.
        public init(rawValue: String) { self.rawValue = rawValue }

        public var description: String { rawValue }

        /// A plugin threw an error that says no more than its text.
        public static let pluginFailed = Code(rawValue: "plugin_failed")
        /// Input that cannot be read as what it should be: a bad row, a damaged or cut-short file.
        /// ``DAQError/location`` says where.
        public static let badInput = Code(rawValue: "bad_input")
        /// A file could not be opened, read or written.
        public static let fileFailed = Code(rawValue: "file_failed")
        /// A pipeline file or a component's settings are wrong.
        public static let invalidConfiguration = Code(rawValue: "invalid_configuration")
        /// A component could not start (a device or file could not be opened).
        public static let startFailed = Code(rawValue: "start_failed")
        /// Applying a changed pipeline file to a running pipeline failed for this component.
        public static let reloadFailed = Code(rawValue: "reload_failed")
        /// The run's record (`manifest.json`) could not be written.
        public static let recordFailed = Code(rawValue: "record_failed")
        /// The run was cancelled before every stage ended.
        public static let cancelled = Code(rawValue: "cancelled")
    }
}
