import DAQCore
import Dispatch

/// Starts an `exec` component's program, restarts it by policy, and watches it for hangs.
///
/// # Thread safety
/// Driven on the stage's queue; timers come back to it through ``StageContext/perform(_:)``.
final class ExecSupervisor {
    let settings: ExecSettings
    private let role: PluginKind
    private let context: StageContext
    private let baseDirectory: String
    private let timeout: Double?
    private(set) var process: ExecProcess?
    private var restarts = 0
    private var delay: Double
    private var watchdog: (any DispatchSourceTimer)?
    /// Set once the stage has failed or the program has finished for good.
    private(set) var done = false
    /// The failure that ended the stage, for a plugin that reports it from `read`.
    private(set) var failure: String?

    /// What the plugin does with a new start (send what is unacknowledged), each message, and
    /// a clean exit; and whether output is owed now (a silent program is then hung).
    var started: (ExecProcess) -> Void = { _ in }
    var message: (ExecProtocol.Message) -> Void = { _ in }
    var finished: () -> Void = {}
    var owesOutput: () -> Bool = { false }
    /// Whether batches sent are still unacknowledged: a program exiting then has failed.
    var unacknowledged: () -> Bool = { false }
    /// Whether the program's output is read as it comes (transforms, sinks).
    var readsOnItsOwn = true

    init(
        settings: ExecSettings, role: PluginKind, context: StageContext, baseDirectory: String, defaultTimeout: Double?
    ) {
        self.settings = settings
        self.role = role
        self.context = context
        self.baseDirectory = baseDirectory
        timeout = settings.timeout?.value ?? defaultTimeout
        delay = settings.restartDelay.value
    }

    /// Starts the program.
    /// - Throws: when it cannot be started (not found is reported by `env` as exit 127).
    func start() throws {
        let p = ExecProcess(settings: settings, context: context, baseDirectory: baseDirectory)
        p.readsOnItsOwn = readsOnItsOwn
        p.onMessage = { [weak self] in self?.message($0) }
        p.onEnd = { [weak self, weak p] end in
            guard let self, let p else { return }
            self.ended(p, end)
        }
        process = p
        try p.start(
            hello: ExecProtocol.hello(
                role: role, component: context.name, pipeline: context.pipelineName, config: settings.config.value))
        started(p)
        armWatchdog()
    }

    private func ended(_ p: ExecProcess, _ end: ExecProcess.End) {
        guard p === process else { return }
        switch end {
        case .finished where !unacknowledged():
            done = true
            stopWatchdog()
            finished()
        case .finished:
            failed(p.describe("exited before acknowledging every batch"))
        case .failed(let reason):
            failed(p.describe(reason))
        }
    }

    private func failed(_ message: String) {
        process = nil
        guard settings.onFailure == .restart, restarts < settings.maxRestarts else {
            stopWatchdog()
            done = true
            let text = settings.onFailure == .restart ? "\(message) (after \(restarts) restart(s))" : message
            failure = text
            context.fail(text)
            context.wake()
            return
        }
        restarts += 1
        context.warn("\(message); restarting in \(delay) s (restart \(restarts) of \(settings.maxRestarts))")
        let wait = delay
        delay = min(max(delay * 2, 0.05), 30)
        let me = QueueConfined(self)
        let context = self.context
        DispatchQueue.global().asyncAfter(deadline: .now() + wait) {
            context.perform {
                guard let s = me.value, !s.done else { return }
                do {
                    try s.start()
                } catch {
                    s.failed("cannot restart \(s.settings.command[0]): \(error)")
                }
            }
        }
    }

    private func armWatchdog() {
        guard let timeout, watchdog == nil else { return }
        let me = QueueConfined(self)
        let context = self.context
        let t = DispatchSource.makeTimerSource(queue: DispatchQueue.global())
        t.schedule(deadline: .now() + timeout / 4, repeating: timeout / 4, leeway: .milliseconds(20))
        t.setEventHandler { context.perform { me.value?.checkHang(timeout) } }
        // The timer fires on a global queue while `stop` lets go of it on the stage's queue:
        // the source keeps itself alive until its cancellation has run, so its last release
        // never races a firing (a "DispatchSource deallocated with non-zero retain count"
        // abort, seen once in CI's conformance run of the exec sink).
        t.setCancelHandler { withExtendedLifetime(t) {} }
        t.activate()
        watchdog = t
    }

    private func checkHang(_ timeout: Double) {
        guard let p = process, owesOutput(), ExecProcess.monotonic() - p.lastActivity > timeout else { return }
        p.fail("wrote nothing for \(timeout) s while owing output (hung?)")
    }

    /// Stops watching and ends the program (at the end of the run).
    func stop() {
        done = true
        stopWatchdog()
        // Let go of the program before ending it: the end this causes is the stop asked for,
        // not a failure of the program to report (a source stopped while its program runs).
        let stopping = process
        process = nil
        stopping?.fail("stopped")
    }

    private func stopWatchdog() {
        watchdog?.cancel()
        watchdog = nil
    }
}
