import DAQCore

/// `exec` as a source: every JSON object the program writes on stdout is a sample; the source
/// ends when the program exits with status 0. Lines are read only as fast as the pipeline
/// takes them, so a program writing faster than that blocks on its full pipe.
public final class ExecSource: SourcePlugin {
    public typealias Configuration = ExecSettings
    public static let typeName = "exec"
    public static let summary = "Runs a program as a source: each JSON Lines object on its stdout is a sample."
    public static let output = StreamOutput(
        .free, note: "fields as the program writes them, or as its first line declares them ({\"daq\": \"describe\"})")

    private let settings: ExecSettings
    private let baseDirectory: String
    private var supervisor: ExecSupervisor!
    private var batch = Batch()

    public init(configuration: ExecSettings, context: PluginContext) throws {
        settings = configuration
        baseDirectory = context.baseDirectory
    }

    /// The program declares its output when it runs; until then, its samples are stamped on
    /// the run clock unless they carry times of their own.
    public func describe(context: PluginContext) throws -> StreamDescriptor {
        StreamDescriptor(timeBase: .run)
    }

    public func start(context: StageContext) throws {
        // A quiet source is not a hung one: no watchdog unless asked for.
        supervisor = ExecSupervisor(
            settings: settings, role: .source, context: context, baseDirectory: baseDirectory, defaultTimeout: nil)
        supervisor.readsOnItsOwn = false
        supervisor.message = { [weak self, weak context] m in
            guard let self, let context else { return }
            switch m {
            case .sample(let meta, let fields):
                ExecProtocol.append(
                    meta: meta, fields: fields, now: context.clock.now(), startDate: context.startDate, to: &batch)
            case .describe(var d):
                d.origin.plugin = d.origin.plugin ?? Self.typeName
                context.declare(d)
            case .ack:
                break
            case .error(let text):
                context.warn("program: \(text)")
            }
        }
        supervisor.owesOutput = { true }
        supervisor.finished = { [weak context] in context?.wake() }
        try supervisor.start()
        supervisor.process?.closeInput()
    }

    public func read(into out: inout Batch, limit: Int, context: StageContext) throws -> SourceStatus {
        if let failure = supervisor.failure { throw ExecError(failure) }
        swap(&batch, &out)
        let full = supervisor.process?.read(limit: limit - out.count) ?? false
        swap(&batch, &out)
        if let failure = supervisor.failure { throw ExecError(failure) }
        if full { return .more }
        if supervisor.done { return .finished }
        return out.isEmpty ? .idle : .more
    }

    public func stop(context: StageContext) {
        supervisor.stop()
    }
}
