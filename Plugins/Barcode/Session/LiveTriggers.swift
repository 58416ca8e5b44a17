import DAQCore

/// Where a live scanner's triggers come from: control lines (`control:`), commands sent to the
/// run (`daq run --trigger KEY`), and the samples of another component (`trigger_from:`).
/// Each lands in an inbox (control lines: in their file) and is applied on the source's next read.
final class LiveTriggers {
    private let commands = CommandInbox()
    private var control: ControlInput?

    init(settings: SessionSettings, context: StageContext) throws {
        let inbox = commands
        if let path = settings.control {
            let input = try ControlInput(path: path)
            input.activate(context: context)
            control = input
        }
        context.onControl { command in
            guard command.name == "trigger" || command.name == "cancel" else { return }
            inbox.post(command)
            context.wake()
        }
        if let other = settings.triggerFrom {
            let found = context.observe(other) { batch in
                for i in 0..<batch.count where batch.kinds[i] == .data {
                    inbox.post(ControlCommand("trigger", uptime: batch.uptimes[i]))
                }
                context.wake()
            }
            if !found { throw DeviceError(path: other, reason: "trigger_from names no component of this pipeline") }
        }
    }

    /// Opens and cancels sessions for every command that arrived, at its time or `now`.
    func apply(to sessions: inout ScanSessions, now: Double, into batch: inout Batch, context: StageContext) throws {
        var words = commands.take().map { ($0.name, $0.uptime ?? now) }
        if let control {
            let (lines, unknown) = try control.take()
            words += lines.map { ($0, now) }
            for u in unknown { context.warn("\(u) is not a command: expected 'trigger' or 'cancel'") }
        }
        for (word, t) in words {
            if word == "trigger" { sessions.begin(at: t, into: &batch) } else { sessions.cancel(at: t, into: &batch) }
        }
    }

    func close() {
        control?.close()
        control = nil
    }
}
