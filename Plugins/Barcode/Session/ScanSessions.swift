import DAQCore

/// How a scanner's sessions open: every code on its own, or only after a trigger.
public enum ScanMode: String, ConfigEnum, Sendable {
    /// Every code read is a session: it opens with the code's first byte and ends with its
    /// terminator.
    case continuous
    /// A session opens on a trigger and ends with the first code, a timeout, a cancel or an error.
    case triggered
}

/// A code as the scanner delivered it, with what its symbology says about it.
struct ScannedCode {
    /// The data, AIM identifier stripped, as text (control characters such as GS kept).
    var text: String
    /// The bytes as received, identifier included.
    var raw: [UInt8]
    /// `gs1-128`, `ean-13`, …, or `unknown`.
    var symbology: String
    /// The AIM symbology identifier (`]C1`), when the scanner sent one.
    var aim: String?
}

/// The session rules of a scanner driver's listener, kept apart from any device so every
/// source — serial, HID, replay — follows the same ones: `scan.start`, then exactly one of
/// `scan.data`, `scan.timeout`, `scan.cancel` or `scan.error`, then `scan.stop`.
///
/// Times are run-clock seconds; each outcome is stamped when it happened (a timeout at the
/// session's start plus `timeout`, even when noticed later), so replayed and live runs agree.
struct ScanSessions {
    let mode: ScanMode
    /// Seconds a session may stay open; `nil` waits for ever.
    let timeout: Double?
    private(set) var open: (id: Int, start: Double)?
    private var nextID = 1
    /// Codes read in triggered mode while no session was open.
    private(set) var ignored = 0
    /// Added to run-clock times for the samples' timestamps: the run's start date live, the
    /// log's first time in a replay.
    var timeBase = 0.0

    init(mode: ScanMode, timeout: Double?) {
        self.mode = mode
        self.timeout = timeout
    }

    /// When the open session times out.
    var deadline: Double? {
        guard let open, let timeout else { return nil }
        return open.start + timeout
    }

    /// Opens a session unless one is open (a second trigger does nothing, as on the device).
    @discardableResult
    mutating func begin(at t: Double, into batch: inout Batch) -> Bool {
        expire(upTo: t, into: &batch)
        guard open == nil else { return false }
        open = (nextID, t)
        nextID += 1
        append(&batch, "scan.start", at: t, [:])
        return true
    }

    /// A whole code: ends the open session with it. In continuous mode a code with no session
    /// open brings its own; in triggered mode it is ignored and counted (returns `false`).
    @discardableResult
    mutating func deliver(_ code: ScannedCode, at t: Double, into batch: inout Batch) -> Bool {
        expire(upTo: t, into: &batch)
        if open == nil {
            guard mode == .continuous else {
                ignored += 1
                return false
            }
            begin(at: t, into: &batch)
        }
        var fields: Fields = ["code": .string(code.text), "symbology": .string(code.symbology)]
        fields["aim"] = code.aim.map(Value.string) ?? .null
        fields["raw"] = .bytes(code.raw)
        end("scan.data", at: t, fields, into: &batch)
        return true
    }

    /// Cancels the open session; with none open it does nothing, as the driver does.
    mutating func cancel(at t: Double, into batch: inout Batch) {
        expire(upTo: t, into: &batch)
        guard open != nil else { return }
        end("scan.cancel", at: t, [:], into: &batch)
    }

    /// Ends the open session in an error (the device went away); with none open, nothing.
    mutating func fail(_ reason: String, at t: Double, into batch: inout Batch) {
        expire(upTo: t, into: &batch)
        guard open != nil else { return }
        end("scan.error", at: t, ["reason": .string(reason)], into: &batch)
    }

    /// Times out the open session if its deadline is at or before `t`.
    mutating func expire(upTo t: Double, into batch: inout Batch) {
        guard let deadline, deadline <= t else { return }
        end("scan.timeout", at: deadline, ["timeout": .double(timeout ?? 0)], into: &batch)
    }

    private mutating func end(_ event: String, at t: Double, _ fields: Fields, into batch: inout Batch) {
        append(&batch, event, at: t, fields)
        append(&batch, "scan.stop", at: t, [:])
        open = nil
    }

    private func append(_ batch: inout Batch, _ event: String, at t: Double, _ extra: Fields) {
        var fields: Fields = ["event": .string(event), "session": .int(Int64(open?.id ?? 0))]
        for (k, v) in extra.pairs { fields[k] = v }
        batch.append(Sample(timestamp: timeBase + t, uptime: t, kind: .event, fields: fields))
    }
}
