import DAQCore

/// A step, pause or resume marker as the `parquet` sink writes it: a row of every file the
/// sink writes, as the loggers put every marker in every file.
struct ParquetMarker: Sendable, Equatable {
    var uptime: Double
    var timestamp: Double
    var stepPath: String
    /// `start`, `step`, `pause`, `resume` or `stop`: the marker's `marker` field.
    var mark: String

    /// The marker at `row` of `batch`.
    init(_ batch: Batch, row: Int) {
        uptime = batch.uptimes[row]
        timestamp = batch.timestamps[row]
        stepPath = batch.stepPaths[row]
        mark = batch.value(StreamDescriptor.markerField.name, at: row)?.stringValue ?? "step"
    }

    /// Whether it goes before a sample at `sampleUptime`: the loggers' rule, so the rows come
    /// in the same order as theirs (a resume only after it, so that what a pause kept, stamped
    /// with the pause's time, sits between the pause and the resume).
    func precedes(_ sampleUptime: Double) -> Bool {
        mark == "resume" ? sampleUptime > uptime : sampleUptime >= uptime
    }
}
