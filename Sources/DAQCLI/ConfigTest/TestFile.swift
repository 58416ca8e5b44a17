import DAQCore
import DAQStandard
import Yams

/// A place in a test file, for failures and diagnostics: `hello.daqtest.yaml:12:7`.
struct Place: Sendable, CustomStringConvertible {
    var file: String
    var line: Int
    var column: Int

    init(file: String, node: Node?) {
        self.file = file
        line = node?.mark?.line ?? 1
        column = node?.mark?.column ?? 1
    }

    var description: String { "\(file):\(line):\(column)" }
}

/// A parsed `*.daqtest.yaml`: the pipeline under test and its cases.
struct TestFile {
    /// The test file as the user named it.
    var path: String
    /// The pipeline file, relative to the working directory (resolved from the test file's folder).
    var pipeline: String
    /// Environment and `--set` overrides every case starts from.
    var environment: [String: String]
    var overrides: [Override]
    /// Environment variables the cases need (`requires:`): unset or empty, they are skipped.
    var requires: [(name: String, place: Place)] = []
    /// The required variables that are unset or empty: the cases are skipped.
    var unmet: [String] = []
    /// Services started for the file's cases and stopped after them (`services:`).
    var services: [ServiceSpec] = []
    var cases: [TestCase]
}

/// A service `daq test` starts on loopback for a file's cases: the reference Info Manager
/// server with the elements of `data`, its URL in the environment variable `variable`.
struct ServiceSpec {
    var data: String
    var variable: String
    var place: Place
}

/// One `set:` entry, applied like `daq run --set key=value`.
struct Override {
    var key: String
    /// The value as YAML text, parsed again by the pipeline loader.
    var yaml: String
    var place: Place

    var argument: String { "\(key)=\(yaml)" }
}

/// One case: what is fed in, and what must come out.
struct TestCase {
    var name: String
    var place: Place
    var environment: [String: String]
    var overrides: [Override]
    var feeds: [Feed]
    var expectations: [ComponentExpectation]
    var events: EventExpectation
    /// Wall-clock seconds after which the run is stopped and the case fails: a source that
    /// waits on a network peer would otherwise hang the test.
    var timeout = TestCase.defaultTimeout
    var timeoutPlace: Place?
    /// The run clock (`clock:`); the virtual clock unless the case asks for another, since the same
    /// input must give the same output at every clock.
    var clock = ClockMode.virtual
    /// The replay pace (`speed:`); the pipeline's own when not given.
    var speed: Double?
    /// Samples a source reads per batch (`batch:`); small batches are what the replay clock makes.
    var batchSize: Int?

    static let defaultTimeout = 60.0
}

/// Input fed to one component.
struct Feed {
    enum Content {
        /// A source's raw input, written to a file its `path` is pointed at; `fileName` keeps
        /// the extension that tells the source the format.
        case raw(text: String, fileName: String?)
        /// HCI events for a capture-reading source, written as btsnoop.
        case capture([(time: Double, bytes: [UInt8])])
        /// Samples that take the place of the component (a source) or of its inputs.
        case samples([Fields])
    }

    var component: String
    var place: Place
    var content: Content
    /// The stream name fed samples carry (`as:`), for a transform or sink.
    var streamName: String?
    /// For an `mqtt` source: the topic its samples are published on, to the broker the source
    /// subscribes to, once it has subscribed; the source itself then runs (`publish:`).
    var publishTopic: String?
}

/// A count that must match exactly or fall in a range.
struct CountSpec: CustomStringConvertible {
    var min: Int?
    var max: Int?

    func accepts(_ n: Int) -> Bool { (min.map { n >= $0 } ?? true) && (max.map { n <= $0 } ?? true) }

    var description: String {
        if let min, let max, min == max { return "\(min)" }
        if let min, let max { return "\(min) to \(max)" }
        if let min { return "at least \(min)" }
        if let max { return "at most \(max)" }
        return "any number"
    }
}

/// What one component's output must satisfy.
struct ComponentExpectation {
    var component: String
    var place: Place
    /// Only the samples satisfying this are checked; without it, every sample but step markers.
    var only: Expression?
    var checks: [Check]
}

/// One assertion, at the place of its key.
struct Check {
    enum Kind {
        case count(CountSpec)
        case every(Expression)
        case none(Expression)
        case samples([ExpectedSample], tolerance: Double)
        case fields([String])
        case steps([String])
        case markers([String])
        case file(FileExpectation)
        /// A sink's `sent`, `delivered` or `failed` samples, from the run's counters.
        case delivery(String, CountSpec)
    }

    var key: String
    var place: Place
    var kind: Kind
}

/// One entry of `samples:`: the fields (and metadata) it names, each with its place.
struct ExpectedSample {
    var place: Place
    var fields: [(name: String, value: Value, place: Place)]
}

/// What a sink must have written to its file.
struct FileExpectation {
    var name: String?
    var items: CountSpec?
    var lines: CountSpec?
    var header: String?
    var contains: [(text: String, place: Place)]
    var places: [String: Place]
}

/// What the run's events must show.
struct EventExpectation {
    /// `finished` unless the case says otherwise: a failed run fails the case.
    var status = "finished"
    var statusPlace: Place?
    var counts: [EventCount] = []
    var contains: [(text: String, place: Place)] = []
    var steps: (paths: [String], place: Place)?
}

/// `warnings: 2`, `errors: {scanner: 1}`: events of one kind, in all or by component.
struct EventCount {
    var kind: String
    var place: Place
    var total: CountSpec?
    var byComponent: [(component: String, count: CountSpec, place: Place)]
}
