/// What a stage does with samples it could not process, by its `on_error` policy.
///
/// The engine calls ``StageRuntime/reject(_:reason:)`` when a transform's `process` or a sink's
/// `write` throws; plugins call ``StageContext/reject(_:reason:)`` for single samples or
/// ``StageContext/reject(raw:reason:)`` for input that never became a sample (a bad CSV row, an
/// undecodable advertising report). Under `stop` the stage fails as before; under `skip` the
/// samples are dropped and reported; under `dead_letter` they also go, each with `error` and
/// `component` fields, to the stage's `<name>.dead` output, so nothing disappears unrecorded.
extension StageRuntime {
    /// Applies the policy to `batch`; returns `false` when the stage has failed (policy `stop`).
    @discardableResult
    func reject(_ batch: Batch, reason: String) -> Bool {
        let count = batch.kinds.lazy.filter { $0 != .marker }.count
        switch onError {
        case .stop:
            failFromPlugin(daqError(reason))
            return false
        case .skip:
            noteError("skipped \(count) sample(s): \(reason)", fatal: false)
        case .deadLetter:
            noteError("\(count) sample(s) to \(name).dead: \(reason)", fatal: false)
            sendDeadLetters(batch, reason: reason)
        }
        return true
    }

    /// Rejects input that never became a sample; it is kept as text in the `raw` field.
    @discardableResult
    func reject(raw: String, uptime: Double, reason: String) -> Bool {
        var batch = Batch(stream: name)
        batch.appendRow(uptime: uptime, timestamp: context.startDate + uptime)
        batch.setColumn(Column(name: "raw", strings: [raw]))
        return reject(batch, reason: reason)
    }

    /// Keeps what a sink sent but could not deliver, from any thread, until the stage's queue
    /// sends it to the dead letters (or the stage finishes, whichever comes first).
    func holdUndelivered(raw: [String], uptime: Double, reason: String) {
        undelivered.withLock { $0.append((raw, uptime, reason)) }
        queue.async { self.sendUndelivered() }
    }

    /// Sends the undelivered texts held so far; runs on the stage's queue. The error was counted
    /// when they were reported as failed, so it is not counted again here.
    func sendUndelivered() {
        let held = undelivered.withLock { held in
            defer { held.removeAll() }
            return held
        }
        for (raw, uptime, reason) in held {
            var batch = Batch(stream: name)
            for _ in raw { batch.appendRow(uptime: uptime, timestamp: context.startDate + uptime) }
            batch.setColumn(Column(name: "raw", strings: raw))
            sendDeadLetters(batch, reason: reason)
        }
    }

    private func sendDeadLetters(_ batch: Batch, reason: String) {
        guard !deadOutputs.isEmpty else { return }
        var letters = Batch(stream: name + ComponentSpec.deadLetterSuffix)
        // Markers are the run's, not this stage's failures: they stay out of the dead letters.
        for row in 0..<batch.count where batch.kinds[row] != .marker {
            letters.append(batch[row])
        }
        guard !letters.isEmpty else { return }
        letters.setColumn(Column(name: "error", strings: Array(repeating: reason, count: letters.count)))
        letters.setColumn(Column(name: "component", strings: Array(repeating: name, count: letters.count)))
        letters.stream = name + ComponentSpec.deadLetterSuffix
        for out in deadOutputs {
            let dropped = out.offer(letters)
            if dropped > 0 { host?.publish(.dropped(component: out.owner, samples: dropped)) }
        }
    }
}

extension StageContext {
    /// Says, beside the error a bad row ends a run with, how to read on past such rows: a
    /// plugin with `on_bad_row` calls it as it stops at one.
    public func noticeHowToReadOn() {
        notice("on_bad_row: skip reports each bad row by file and line and reads on past it")
    }

    /// A bad row or report, handled by the plugin's own skip setting and the component's
    /// `on_error`: sent to `<component>.dead` (`dead_letter`), reported and skipped (`skip`, or
    /// `stop` with the plugin skipping), or thrown (`stop` with the plugin failing).
    ///
    /// - Parameters:
    ///   - raw: the input as text (the row, the report in hex), or its location when the text is gone.
    ///   - uptime: run-clock time to stamp a dead letter with: the last sample's, or now for live input.
    ///   - message: the problem, with file and line.
    ///   - pluginSkips: the plugin's own `on_bad_row: skip` (or the like) is set.
    ///   - failure: what is thrown under `stop` without `pluginSkips`.
    public func badInput(
        raw: String, uptime: Double, message: String, pluginSkips: Bool, failure: @autoclosure () -> any Error
    ) throws {
        switch errorPolicy {
        case .deadLetter: reject(raw: raw, uptime: uptime, reason: message)
        case .skip: warn("skipped \(message)")
        case .stop:
            guard pluginSkips else {
                // Every caller has `on_bad_row`: say how to read on, beside the error.
                noticeHowToReadOn()
                throw failure()
            }
            warn("skipped \(message)")
        }
    }
}
