/// How a run ended.
public struct RunResult: Sendable {
    /// `finished`, `failed` or `cancelled`.
    public var state: LifecycleState
    /// Every stage's counters at the end, in pipeline order.
    public var stages: [StageStatistics]
    /// Wall time at start and end, seconds since 1970.
    public var startDate: Double
    public var endDate: Double
    /// The first failure: its code, the component, the text, and where in a file when known.
    public var error: DAQError?
    /// What went wrong writing the run's record (`manifest.json`), each naming the file; a run
    /// whose record could not be written did not end cleanly, whatever its ``state``.
    public var recordProblems: [String]

    /// Creates a result.
    public init(
        state: LifecycleState, stages: [StageStatistics], startDate: Double, endDate: Double, error: DAQError? = nil,
        recordProblems: [String] = []
    ) {
        self.state = state
        self.stages = stages
        self.startDate = startDate
        self.endDate = endDate
        self.error = error
        self.recordProblems = recordProblems
    }

    /// The first failure as one line, `component: message`.
    @available(
        *, deprecated,
        message: "match on error?.code and error?.component; the line is \"\\(error.component): \\(error)\""
    )
    public var failure: String? { failureLine }

    /// The first failure as `daq run` prints it and the manifest keeps it.
    package var failureLine: String? { error?.failureLine }
}
