import DAQCore
import DAQSHA256
import Dispatch
import Foundation
import Logging

/// Applies the pipeline file again to a running `daq run`: on SIGHUP, on `reload` from the
/// control socket, and with `--watch` whenever the file changes.
///
/// The new file is validated first; an invalid one is reported with every diagnostic and the
/// old configuration keeps running. A valid one goes to ``PipelineRun/reload(_:)``, which
/// swaps, restarts, adds and removes components without losing a sample, or refuses what only
/// a new run can change, saying why, and the run goes on.
final class Reloader: @unchecked Sendable {
    private let file: String
    private let overrides: [String]
    private let run: PipelineRun
    private let logger: Logger
    private let queue = DispatchQueue(label: "daq.reload")
    private var signals: SignalSources?
    private var watcher: (any DispatchSourceTimer)?
    private var lastText: String?

    init(file: String, overrides: [String], run: PipelineRun, logger: Logger) {
        self.file = file
        self.overrides = overrides
        self.run = run
        self.logger = logger
        lastText = try? String(contentsOfFile: file, encoding: .utf8)
    }

    /// Reloads on SIGHUP, and every second the file's text changed when `watch` is set.
    func start(watch: Bool) {
        signals = SignalSources([SIGHUP], label: "daq.reload.signal") { [weak self] _ in
            guard let self else { return }
            self.queue.async { _ = self.reload(reason: "SIGHUP") }
        }
        guard watch else { return }
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(deadline: .now() + 1, repeating: 1, leeway: .milliseconds(200))
        timer.setEventHandler { [weak self] in
            guard let self, let text = try? String(contentsOfFile: self.file, encoding: .utf8), text != self.lastText
            else { return }
            _ = self.reload(reason: "\(self.file) changed")
        }
        timer.setCancelHandler { withExtendedLifetime(timer) {} }
        timer.activate()
        queue.sync { watcher = timer }
    }

    func stop() {
        // On the timer's own queue, and the timer kept until its cancellation has run: letting
        // go of it from another thread while it fires is the race the exec watchdog once hit.
        queue.sync {
            watcher?.cancel()
            watcher = nil
        }
        signals?.restore()
        signals = nil
    }

    /// Reloads now (from any thread); returns `nil` when applied, or why not.
    func reloadNow() -> String? {
        queue.sync { reload(reason: "a reload command") }
    }

    private func reload(reason: String) -> String? {
        lastText = try? String(contentsOfFile: file, encoding: .utf8)
        let spec: PipelineSpec
        do {
            spec = try PipelineLoader(registry: PluginSet.current, overrides: overrides, contentHash: .sha256).load(
                file: file)
        } catch {
            let text = error.diagnostics.map(\.description).joined(separator: "\n")
            logger.error("reload (\(reason)): \(file) is invalid; the running configuration stays\n\(text)")
            return "\(file) is invalid; the running configuration stays:\n\(text)"
        }
        do {
            let report = try run.reload(spec)
            if report.failed.isEmpty {
                logger.notice("reloaded \(file) (\(reason)): \(report)")
                return nil
            }
            logger.error("reloaded \(file) (\(reason)) but components failed, so the run stops: \(report)")
            return "components failed after the reload, so the run stops: \(report.failed.joined(separator: "; "))"
        } catch {
            logger.error("reload (\(reason)) refused: \(error); the running configuration stays")
            return "\(error)"
        }
    }
}
