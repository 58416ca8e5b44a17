import DAQCore

/// What the conformance suite needs to know about one plugin: a working configuration, the
/// input it takes, and what it promises. Every property but ``config`` has a default, so a
/// plain pass-through transform needs nothing else.
///
/// Configuration text may use `${CONFORMANCE_DIR}`, a fresh empty directory for each run the
/// suite makes, so sinks that write files never see another run's output.
public struct ConformanceSpec: Sendable {
    /// The component's YAML keys, without `type` and `inputs`, as a block mapping (`"size: 1\nfield: v"`).
    public var config: String
    /// Makes `count` input samples for a transform or sink; ignored for sources.
    public var input: @Sendable (_ count: Int) -> [Sample]
    /// How many samples the ordinary runs feed.
    public var inputCount: Int
    /// What must come out of the plugin once its input has ended or the run was stopped.
    public var drain: DrainExpectation
    /// How to make the plugin fail at run time; `nil` skips the errors check (say why in ``reasons``).
    public var failure: FailureCase?
    /// How to make the plugin wait on I/O; `nil` skips the non-blocking check (say why in ``reasons``).
    public var stall: StallCase?
    /// How many samples the huge-batch run feeds in one batch; `nil` skips it.
    public var hugeCount: Int?
    /// Sources: a configuration that yields no samples at all (an empty file).
    public var emptyConfig: String?
    /// Sources: a configuration that yields ``hugeCount`` samples.
    public var hugeConfig: String?
    /// Sources that never end by themselves (a device, a broker): how to make them acquire samples.
    public var live: LiveInput?
    /// The run clock of every run.
    public var clock: ClockMode
    /// Checks what the plugin wrote after the drain run (a file's lines, a broker's acks); returns
    /// what is wrong, or `nil`.
    public var checkOutput: (@Sendable (ConformanceOutcome) -> String?)?
    /// Why a check does not apply to this plugin; the report prints each reason.
    public var reasons: [ConformanceCheck: String]
    /// The longest any one run may take before the suite calls it hung, in seconds. Generous:
    /// it can only fail on a real hang, never on a slow machine.
    public var deadline: Double

    /// Creates a specification.
    public init(
        config: String = "",
        input: @escaping @Sendable (_ count: Int) -> [Sample] = ConformanceSpec.counterSamples,
        inputCount: Int = 1_000, drain: DrainExpectation = .passThrough, failure: FailureCase? = nil,
        stall: StallCase? = nil, hugeCount: Int? = 1_000_000, emptyConfig: String? = nil, hugeConfig: String? = nil,
        live: LiveInput? = nil, clock: ClockMode = .virtual,
        checkOutput: (@Sendable (ConformanceOutcome) -> String?)? = nil,
        reasons: [ConformanceCheck: String] = [:], deadline: Double = 120
    ) {
        self.config = config
        self.input = input
        self.inputCount = inputCount
        self.drain = drain
        self.failure = failure
        self.stall = stall
        self.hugeCount = hugeCount
        self.emptyConfig = emptyConfig
        self.hugeConfig = hugeConfig
        self.live = live
        self.clock = clock
        self.checkOutput = checkOutput
        self.reasons = reasons
        self.deadline = deadline
    }

    /// `count` samples 10 ms apart with `seq` (int) and `value` (double): the default input.
    public static func counterSamples(_ count: Int) -> [Sample] {
        (0..<count).map { i in
            let t = Double(i) / 100
            return Sample(
                timestamp: 1_700_000_000 + t, uptime: t,
                fields: ["seq": .int(Int64(i)), "value": .double(Double(i % 100) / 10)])
        }
    }
}

/// What must come out of a plugin, checked after its input ended and after a stop.
public enum DrainExpectation: Sendable {
    /// Every sample in comes out: a transform emits as many as it took, a sink writes them all.
    case passThrough
    /// No more come out than went in, and every one went in (filters, de-duplication).
    case atMost
    /// At least one comes out once the input ends: an aggregator flushed what it held.
    case flushed
    /// A source emits exactly this many, all of which reach the sink.
    case exactly(Int)
    /// Sinks: written samples reach no collector; the engine must have handed them every one
    /// (use ``ConformanceSpec/checkOutput`` to check the destination).
    case consumed
}

/// How to make a plugin fail at run time, and how it must say so.
public struct FailureCase: Sendable {
    /// How the failure must be reported.
    public enum Report: Sendable {
        /// A `failed` event names the component and the run ends as failed.
        case fatal
        /// A `sinkFailed` event names the sink (samples it could not deliver); the run still ends.
        case deliveryFailed
        /// A `warning` event names the component (a bad row skipped); the run finishes.
        case warning
        /// The run refuses to start with an error naming the component (a file that is not there).
        case refusedAtStart
    }

    /// The configuration that makes it fail; `nil` keeps the spec's.
    public var config: String?
    /// The input that makes it fail; `nil` keeps the spec's.
    public var input: [Sample]?
    /// How it must be reported.
    public var report: Report
    /// Text the message must contain, so the error says what went wrong.
    public var messageContains: String?

    /// Creates a failure case.
    public init(config: String? = nil, input: [Sample]? = nil, report: Report, messageContains: String? = nil) {
        self.config = config
        self.input = input
        self.report = report
        self.messageContains = messageContains
    }
}

/// How to make a plugin wait on I/O that does not complete while the non-blocking check runs:
/// a server that never answers, a program that never reads.
public struct StallCase: Sendable {
    /// What tells the suite that every copy is now waiting.
    public enum Signal: Sendable {
        /// The plugin stopped taking input: its feed hit backpressure (transforms and sinks).
        case backpressure
        /// The source emitted at least one sample and is waiting for the next.
        case firstSample
        /// Every copy is running: a live source waiting for a device that sends nothing. Its
        /// first read was queued on the pool before the heartbeat's, so a read that blocks
        /// holds its thread before the heartbeat asks for one.
        case started
    }

    /// The configuration that makes it wait.
    public var config: String
    /// How many samples to feed each copy (transforms and sinks).
    public var inputCount: Int
    /// What tells the suite it waits.
    public var signal: Signal
    /// Called once the check is done, before the run is cancelled: let the I/O complete.
    public var release: (@Sendable () -> Void)?

    /// Creates a stall case.
    public init(config: String, inputCount: Int = 10_000, signal: Signal, release: (@Sendable () -> Void)? = nil) {
        self.config = config
        self.inputCount = inputCount
        self.signal = signal
        self.release = release
    }
}

/// How a source that never ends by itself gets samples during a run.
public struct LiveInput: Sendable {
    /// How many samples the drain run expects; the run stops once that many were acquired.
    public var count: Int
    /// Called after the run started, on the test's thread: make the device or broker deliver
    /// `count` samples (write to a pseudo-terminal, publish to a broker).
    public var produce: @Sendable (_ count: Int) throws -> Void

    /// Creates a live input.
    public init(count: Int, produce: @escaping @Sendable (_ count: Int) throws -> Void) {
        self.count = count
        self.produce = produce
    }
}
