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
/// A plain value: its source serializes access.
struct ScanSessions {
    /// Whether a session is open; the open one carries its id and start, so neither can be
    /// out of step with it.
    private enum State {
        case idle
        case open(id: Int, start: Double)
    }

    let mode: ScanMode
    /// Seconds a session may stay open; `nil` waits for ever.
    let timeout: Double?
    private var state = State.idle
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

    /// The open session, if any.
    var open: (id: Int, start: Double)? {
        guard case .open(let id, let start) = state else { return nil }
        return (id, start)
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
        guard case .idle = state else { return false }
        state = .open(id: nextID, start: t)
        nextID += 1
        append(&batch, "scan.start", session: nextID - 1, at: t, [:])
        return true
    }

    /// A whole code: ends the open session with it. In continuous mode a code with no session
    /// open brings its own; in triggered mode it is ignored and counted (returns `false`).
    @discardableResult
    mutating func deliver(_ code: ScannedCode, at t: Double, into batch: inout Batch) -> Bool {
        expire(upTo: t, into: &batch)
        if case .idle = state {
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

    /// Cancels the open session; with none open it does nothing, as the driver does. A cancel
    /// the scanner did not ask for (the run stopped, the input ended) says why in `reason`.
    mutating func cancel(at t: Double, reason: String? = nil, into batch: inout Batch) {
        expire(upTo: t, into: &batch)
        guard case .open = state else { return }
        end("scan.cancel", at: t, reason.map { ["reason": .string($0)] } ?? [:], into: &batch)
    }

    /// Ends the open session in an error (the device went away); with none open, nothing.
    mutating func fail(_ reason: String, at t: Double, into batch: inout Batch) {
        expire(upTo: t, into: &batch)
        guard case .open = state else { return }
        end("scan.error", at: t, ["reason": .string(reason)], into: &batch)
    }

    /// Times out the open session if its deadline is at or before `t`.
    mutating func expire(upTo t: Double, into batch: inout Batch) {
        guard let deadline, deadline <= t else { return }
        end("scan.timeout", at: deadline, ["timeout": .double(timeout ?? 0)], into: &batch)
    }

    /// Closes, at `t`, what the pipeline saw of the sessions when the run cut the source short:
    /// an open session ends in `scan.cancel` (`reason: stopped`; `scan.timeout` if its deadline
    /// had come), an outcome without its `scan.stop` gets it. What the source had read beyond
    /// `seen` was dropped by the run with its samples, so it is forgotten here too.
    mutating func cutShort(seen: EmittedSessions, at t: Double, into batch: inout Batch) {
        state = .idle
        switch seen.state {
        case .closed:
            return
        case .open(let id, let start):
            if let timeout, start + timeout <= t {
                append(&batch, "scan.timeout", session: id, at: start + timeout, ["timeout": .double(timeout)])
                append(&batch, "scan.stop", session: id, at: start + timeout, [:])
            } else {
                append(&batch, "scan.cancel", session: id, at: t, ["reason": .string("stopped")])
                append(&batch, "scan.stop", session: id, at: t, [:])
            }
        case .ended(let id):
            append(&batch, "scan.stop", session: id, at: t, [:])
        }
    }

    private mutating func end(_ event: String, at t: Double, _ fields: Fields, into batch: inout Batch) {
        guard case .open(let id, _) = state else { return }
        append(&batch, event, session: id, at: t, fields)
        append(&batch, "scan.stop", session: id, at: t, [:])
        state = .idle
    }

    private func append(_ batch: inout Batch, _ event: String, session: Int, at t: Double, _ extra: Fields) {
        var fields: Fields = ["event": .string(event), "session": .int(Int64(session))]
        for (k, v) in extra.pairs { fields[k] = v }
        batch.append(Sample(timestamp: timeBase + t, uptime: t, kind: .event, fields: fields))
    }
}
