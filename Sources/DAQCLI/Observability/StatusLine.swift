import DAQCore
import Dispatch
import Foundation

/// The one-line live status on a terminal: samples/s per stage, redrawn twice a second.
final class StatusLine {
    private let timer: (any DispatchSourceTimer)?
    private let queue = DispatchQueue(label: "daq.status")

    init(run: PipelineRun, enabled: Bool) {
        guard enabled else {
            timer = nil
            return
        }
        let t = DispatchSource.makeTimerSource(queue: queue)
        nonisolated(unsafe) var last: [String: Int] = [:]
        nonisolated(unsafe) var lastTime = run.clock.elapsedWallSeconds()
        t.schedule(deadline: .now() + 0.5, repeating: 0.5)
        t.setEventHandler {
            let now = run.clock.elapsedWallSeconds()
            let dt = max(now - lastTime, 1e-3)
            var parts: [String] = []
            for s in run.statistics {
                let count = s.kind == .sink ? s.samplesIn : s.samplesOut
                let rate = Double(count - (last[s.name] ?? 0)) / dt
                last[s.name] = count
                var part = "\(s.name) \(RunSummary.rate(rate))/s"
                if s.dropped > 0 { part += " dropped \(s.dropped)" }
                if s.bufferCapacity > 0, s.buffered * 10 > s.bufferCapacity * 9 { part += " (buffer full)" }
                parts.append(part)
            }
            lastTime = now
            let line = String(format: "%.1f", now) + "s  " + parts.joined(separator: " · ")
            StandardError.status(line)
        }
        t.activate()
        timer = t
    }

    /// Stops redrawing and clears the line.
    func stop() {
        guard let timer else { return }
        queue.sync { timer.cancel() }
        StandardError.clearStatus()
    }
}
