import DAQCore

/// Starts an `exec` component's program, restarts it by policy, and watches it for hangs.
///
/// # Thread safety
/// Driven on the stage's queue; its timers (the restart delay, the hang watchdog) are the
/// context's and run there too.
final class ExecSupervisor {
    let settings: ExecSettings
    private let role: PluginKind
    private let context: StageContext
    private let baseDirectory: String
    private let timeout: Double?
    private(set) var process: ExecProcess?
    private var restarts = 0
    private var delay: Double
    private var watchdog: StageTask?
    private var restartTimer: StageTask?
    /// The program a stop is ending, until it and its process group are gone.
    private var retiring: ExecProcess?
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
        restartTimer = context.after(.seconds(wait)) {
            guard let s = me.value, !s.done else { return }
            do {
                try s.start()
            } catch {
                s.failed("cannot restart \(s.settings.command[0]): \(error)")
            }
        }
    }

    /// Looks for a hang four times per timeout, so one is caught at most a quarter late.
    private func armWatchdog() {
        guard let timeout, watchdog == nil || watchdog!.isCancelled, !done else { return }
        let me = QueueConfined(self)
        watchdog = context.after(.seconds(timeout / 4)) {
            guard let s = me.value else { return }
            s.checkHang(timeout)
            s.armWatchdog()
        }
    }

    private func checkHang(_ timeout: Double) {
        guard let p = process, owesOutput(), ExecProcess.monotonic() - p.lastActivity > timeout else { return }
        p.fail("wrote nothing for \(timeout) s while owing output (hung?)")
    }

    /// Stops watching and ends the program (at the end of the run): SIGTERM to it and its
    /// children, SIGKILL after `stop_timeout`; the stage ends once they are gone. Called from a
    /// source's `stop` or a consumer's `finish`, where the end may complete later.
    func stop() {
        done = true
        stopWatchdog()
        // Let go of the program before ending it: the end this causes is the stop asked for,
        // not a failure of the program to report (a source stopped while its program runs).
        guard let stopping = process else { return }
        process = nil
        // Kept until its group is gone: the exit and the grace timer find it only through weak
        // references.
        retiring = stopping
        let grace = settings.stopTimeout.value
        // The stage waits a second past the grace for the SIGKILL's reaping, never longer.
        let end = context.completeEndLater(waitingAtMost: .seconds(grace + 1))
        stopping.terminate(grace: grace) { [weak self] in
            self?.retiring = nil
            end.succeed()
        }
    }

    private func stopWatchdog() {
        watchdog?.cancel()
        watchdog = nil
        restartTimer?.cancel()
        restartTimer = nil
    }
}
