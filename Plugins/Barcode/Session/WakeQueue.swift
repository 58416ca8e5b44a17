import DAQCore
import Dispatch

/// The queue device readiness and timeout timers call back on. Their handlers only wake the
/// source, but they must run even when the shared pools are busy: a private serial queue gets
/// its own thread, where a global queue may have none free.
enum WakeQueue {
    static let shared = DispatchQueue(label: "daq.barcode.wake")
}

/// Wakes a source at a run-clock time: a session's timeout, a device's next reopen attempt.
/// Under the virtual clock nothing is armed; time there moves with the data.
final class WakeTimer {
    private var timer: (any DispatchSourceTimer)?

    /// Arms (or re-arms) the wake for run-clock `uptime`.
    func wake(at uptime: Double?, context: StageContext) {
        guard let uptime, let deadline = context.clock.deadline(forUptime: uptime) else { return }
        if timer == nil {
            let t = DispatchSource.makeTimerSource(queue: WakeQueue.shared)
            t.setEventHandler { context.wake() }
            t.activate()
            timer = t
        }
        timer?.schedule(deadline: deadline, leeway: .milliseconds(1))
    }

    func cancel() {
        timer?.cancel()
        timer = nil
    }
}

/// A source plugin that is a thin shell around a ``LiveScanner``.
protocol LiveScannerPlugin: SourcePlugin {
    var scanner: LiveScanner { get }
}

extension LiveScannerPlugin {
    public func start(context: StageContext) throws { try scanner.start(context: context) }

    public func read(into batch: inout Batch, limit: Int, context: StageContext) throws -> SourceStatus {
        try scanner.read(into: &batch, limit: limit, context: context)
    }

    public func cutShort(into batch: inout Batch, at uptime: Double, context: StageContext) throws {
        scanner.cutShort(into: &batch, at: uptime, context: context)
    }

    public func stop(context: StageContext) { scanner.stop(context: context) }
}
