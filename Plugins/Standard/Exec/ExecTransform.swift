import DAQCore
import Foundation

/// `exec` as a transform: each batch goes to the program as JSON Lines followed by a `batch`
/// line; what the program writes until it acknowledges that batch is the batch's output.
///
/// Output is emitted only on the acknowledgement, so after a restart the unacknowledged
/// batches are sent again and nothing comes out twice.
public final class ExecTransform: TransformPlugin, DeferredWork {
    public typealias Configuration = ExecSettings
    public static let typeName = "exec"
    public static let summary = "Runs a program as a transform: samples in and out as JSON Lines on stdin/stdout."
    public static let output = StreamOutput(
        .input,
        note: "the input's fields and any the program adds, or what its first line declares ({\"daq\": \"describe\"})")

    private let settings: ExecSettings
    private let baseDirectory: String
    private var supervisor: ExecSupervisor!
    private var unacked = UnackedBatches()
    private var output = Batch()
    private var inputClosed = false
    /// What the program said it writes, once it has: from then on, the output's descriptor.
    private var declared: StreamDescriptor?

    public init(configuration: ExecSettings, context: PluginContext) throws {
        settings = configuration
        baseDirectory = context.baseDirectory
    }

    public var acceptsInput: Bool { !unacked.isFull || supervisor.done }
    /// After the input ends, the program may still write until it exits.
    public var hasPendingWork: Bool { !supervisor.done && (!unacked.isEmpty || inputClosed) }

    public func start(context: StageContext) throws {
        supervisor = ExecSupervisor(
            settings: settings, role: .transform, context: context, baseDirectory: baseDirectory,
            defaultTimeout: ExecSettings.hangTimeout.value)
        supervisor.started = { [weak self] p in
            guard let self else { return }
            output = Batch()
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
        supervisor.finished = { [weak self, weak context] in
            guard let self, let context else { return }
            // What the program wrote after its last acknowledgement, before exiting.
            context.emit(output)
            output = Batch()
            context.wake()
        }
        try supervisor.start()
    }

    public func describe(input: StreamDescriptor, context: PluginContext) throws -> StreamDescriptor {
        declared ?? input
    }

    public func process(_ batch: inout Batch, context: StageContext) throws {
        if let failure = supervisor.failure { throw ExecError(failure) }
        let bytes = unacked.send(batch)
        supervisor.process?.write(bytes)
        batch = Batch()
    }

    private func received(_ message: ExecProtocol.Message, context: StageContext) {
        switch message {
        case .sample(let meta, let fields):
            ExecProtocol.append(
                meta: meta, fields: fields, now: context.clock.now(), startDate: context.startDate, to: &output)
        case .describe(let d):
            declared = d
            context.declare(d)
        case .ack(let n):
            let (_, wake) = unacked.ack(n)
            context.emit(output)
            output = Batch()
            if wake { context.wake() }
        case .error(let text):
            context.warn("program: \(text)")
        }
    }

    public func inputEnded() {
        inputClosed = true
        supervisor.process?.closeInput()
    }

    public func finish(context: StageContext) throws -> Batch {
        supervisor.stop()
        if let failure = supervisor.failure { throw ExecError(failure) }
        return Batch()
    }
}

/// An `exec` program failed and the policy did not restart it.
struct ExecError: Error, CustomStringConvertible {
    var description: String
    init(_ d: String) { description = d }
}
