import DAQCore
import Foundation

/// What a recording says about itself and what reading it found: the device, its clock and
/// rate, and the damage met on the way. The source logs it, puts it in the run's manifest, and
/// `daq inspect` prints it.
struct RecordingInfo {
    /// The format found: `csv`, `jsonl`, `json`, `cwa`, `gt3x`, `geneactiv`, `actilife-csv`, …
    var format: String
    /// The device model as the file names it (`AX3`, `AX6`, `wGT3X-BT`, `GENEActiv`), if it does.
    var device: String?
    var serial: String?
    /// The rate the device was configured for, Hz.
    var nominalRate: Double?
    /// The recording's first sample, seconds since 1970 (UTC).
    var start: Double?
    /// The zone of the device's clock: an IANA name, or a fixed offset such as `+01:00`.
    var timeZone: String?
    /// The unit of the axes: `g` unless the file records m/s² (phone apps) or counts.
    var units = "g"
    /// Anything else worth a line in the log (firmware, a session id, the epoch of a counts export).
    var extra: [(String, String)] = []

    /// What reading found, updated as the file is read.
    var findings = RecordingFindings()

    /// A time as the device's clock showed it: ISO 8601 in the device's zone, with its offset, so
    /// a diary kept in local time joins on it; UTC when the file names no zone.
    func date(_ secondsSince1970: Double) -> String {
        ISODate.string(secondsSince1970, timeZone: timeZone.flatMap(ISODate.zone) ?? TimeZone(identifier: "UTC")!)
    }

    /// The manifest's `inputs` entry.
    func manifestFields(path: String) -> Fields {
        var f = Fields()
        f["path"] = .string(path)
        f["format"] = .string(format)
        f["device"] = device.map(Value.string) ?? .null
        f["serial"] = serial.map(Value.string) ?? .null
        f["nominalRate"] = nominalRate.map(Value.double) ?? .null
        f["start"] = start.map { .string(date($0)) } ?? .null
        f["timeZone"] = timeZone.map(Value.string) ?? .null
        f["units"] = .string(units)
        for (key, value) in extra { f[key] = .string(value) }
        return f
    }
}

/// Damage and repairs met while reading a recording.
struct RecordingFindings {
    /// Blocks (sectors, records, pages) skipped because they failed a checksum or could not be parsed.
    var corruptBlocks = 0
    /// Spans with no samples longer than the device's own spacing: start (s since 1970) and length (s).
    var gaps: [(start: Double, seconds: Double)] = []
    /// Spans the reader filled in rather than read (ActiGraph idle sleep), start and end (s since 1970).
    var filled: [(start: Double, end: Double)] = []
}
