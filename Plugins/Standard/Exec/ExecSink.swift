import DAQCore

/// `exec` as a sink: each batch goes to the program as JSON Lines followed by a `batch` line;
/// the program's `ack` for it reports the batch delivered. Batches not acknowledged when the
/// program fails are sent again after a restart.
public final class ExecSink: SinkPlugin, DeferredWork {
    public typealias Configuration = ExecSettings
    public static let typeName = "exec"
    public static let summary = "Runs a program as a sink: samples as JSON Lines on its stdin, acknowledged per batch."

    private let settings: ExecSettings
    private let baseDirectory: String
    private var supervisor: ExecSupervisor!
    private var unacked = UnackedBatches()
    private var inputClosed = false

    public init(configuration: ExecSettings, context: PluginContext) throws {
        settings = configuration
        baseDirectory = context.baseDirectory
    }

    public var acceptsInput: Bool { !unacked.isFull || supervisor.done }
    public var hasPendingWork: Bool { !supervisor.done && !unacked.isEmpty }

    public func start(context: StageContext) throws {
        supervisor = ExecSupervisor(
            settings: settings, role: .sink, context: context, baseDirectory: baseDirectory,
            defaultTimeout: ExecSettings.hangTimeout.value)
        supervisor.started = { [weak self] p in
            guard let self else { return }
            let bytes = unacked.resend()
            if !bytes.isEmpty { p.write(bytes) }
            if inputClosed { p.closeInput() }
        }
        supervisor.message = { [weak self, weak context] m in
            guard let self, let context else { return }
            self.received(m, context: context)
        }
        supervisor.owesOutput = { [weak self] in !(self?.unacked.isEmpty ?? true) }
        supervisor.unacknowledged = { [weak self] in !(self?.unacked.isEmpty ?? true) }
        supervisor.finished = { [weak context] in context?.wake() }
        try supervisor.start()
    }

    public func write(_ batch: Batch, context: StageContext) throws {
        if let failure = supervisor.failure { throw ExecError(failure) }
        let bytes = unacked.send(batch)
        context.wrote(bytes: bytes.count)
        supervisor.process?.write(bytes)
    }

    private func received(_ message: ExecProtocol.Message, context: StageContext) {
        switch message {
        case .sample, .describe:
            context.warn("program: a sink's program wrote a sample; only ack and error lines are read")
        case .ack(let n):
            let (samples, wake) = unacked.ack(n)
            if samples > 0 { context.delivered(samples: samples) }
            if wake { context.wake() }
        case .error(let text):
            context.warn("program: \(text)")
        }
    }

    public func finish(context: StageContext) throws {
        // The run's last step marker is written after the input ended: stdin closes only now.
        inputClosed = true
        supervisor.process?.drainUntilExit(timeout: (settings.timeout ?? ExecSettings.hangTimeout).value)
        supervisor.stop()
        if let failure = supervisor.failure { throw ExecError(failure) }
    }
}
