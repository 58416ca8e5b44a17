import DAQCore

/// `roll: {rows, seconds}`: when a `parquet` sink closes a part and starts the next.
public struct ParquetRollSettings: SettingGroup, Equatable {
    @Setting(whenUnset: "no row limit", "Rows per part file.") public var rows: Int?
    @Setting(type: "seconds", whenUnset: "no time limit", "Run-clock time per part file (600, 10m, 1h).")
    public var seconds: Seconds?

    /// No limit yet: decoding fills the keys written.
    public init() {}

    func validate(key: String) throws {
        if rows == nil && seconds == nil { throw ConfigIssue(key: key, "needs rows, seconds, or both") }
        if let rows, rows < 1 { throw $rows.issue("must be at least 1, found \(rows)") }
        if let seconds, !(seconds.value > 0) { throw $seconds.issue("must be more than 0 s") }
    }
}
