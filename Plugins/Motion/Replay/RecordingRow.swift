import DAQCore

/// Rows of a recording before they are placed on the run clock, column by column, so a reader
/// fills plain arrays and no per-row value is copied through a protocol.
struct RowBuffer {
    /// The recording's own times, seconds.
    var times: [Double] = []
    var xs: [Double] = []
    var ys: [Double] = []
    var zs: [Double] = []
    /// 1-based line numbers in the file, for messages.
    var lines: [Int] = []
    /// Step paths and kinds, when the format carries them (SageResearch logs); else empty.
    var stepPaths: [String] = []
    var kinds: [SampleKind] = []
    /// Other columns per row, in the order of the reader's `extraNames`; empty when there are none.
    var extras: [[Value]] = []
    /// Numeric channels besides the axes (temperature, light, gyroscope), one array per name in the
    /// reader's `channelNames`, each as long as `times`; empty when the format has none. Binary
    /// formats fill these instead of `extras`, so no row allocates.
    var channels: [[Double]] = []
    /// Per row, whether the sample was filled in rather than measured (ActiGraph idle sleep);
    /// empty when no row of the buffer was.
    var filled: [Bool] = []

    var count: Int { times.count }

    init(capacity: Int = 0) {
        times.reserveCapacity(capacity)
        xs.reserveCapacity(capacity)
        ys.reserveCapacity(capacity)
        zs.reserveCapacity(capacity)
        lines.reserveCapacity(capacity)
    }

    mutating func append(time: Double, x: Double, y: Double, z: Double, line: Int) {
        times.append(time)
        xs.append(x)
        ys.append(y)
        zs.append(z)
        lines.append(line)
    }
}

/// A bad row: what is wrong, and where.
struct BadRow: Error, CustomStringConvertible {
    var path: String
    var line: Int
    var message: String
    var description: String { "\(path):\(line): \(message)" }
}

/// A reader of one recording format.
protocol RecordingReader: AnyObject {
    /// Names of the extra columns, in the order of `RowBuffer.extras`.
    var extraNames: [String] { get }
    /// Appends up to `limit` rows; returns false at the end of the file. A bad row throws
    /// ``BadRow`` after the rows before it were appended; reading may go on after it.
    func read(into rows: inout RowBuffer, limit: Int) throws -> Bool
    /// What the reader found out and the user should know (units, rate, preamble).
    var notes: [String] { get }
    /// Seconds added to row times for the samples' timestamps: a SageResearch log's `startDate`,
    /// kept apart so relative times keep their full precision.
    var timeOffset: Double { get }
    /// Names of the numeric channels in `RowBuffer.channels`, in order.
    var channelNames: [String] { get }
    /// What the file says about the device and what reading it found so far; `nil` for formats
    /// that carry nothing beyond the samples.
    var info: RecordingInfo? { get }
    /// Whether a bad row is a damaged block the rest does not depend on (a `.cwa` sector, which
    /// carries its own time), so the replay reads around it unless `on_bad_row: fail` is set.
    var readsAroundDamage: Bool { get }
}

extension RecordingReader {
    var readsAroundDamage: Bool { false }
    var timeOffset: Double { 0 }
    var channelNames: [String] { [] }
    var info: RecordingInfo? { nil }
}
