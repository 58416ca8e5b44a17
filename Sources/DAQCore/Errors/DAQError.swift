/// An error as the engine reports it: a stable ``Code`` to match on, the text people read, the
/// component it concerns, where in a file it was found, and the error underneath.
///
/// `RunResult.error` and the ``PipelineEvent/failed(component:error:)`` event carry one, so a
/// program tells failures apart by ``code`` and ``location`` instead of matching substrings:
///
/// ```swift
/// if let error = run.wait().error, error.code == .badInput, let place = error.location {
///     print("fix \(place.file) near line \(place.line ?? 0)")
/// }
/// ```
///
/// A plugin may throw one to choose the code and the place; any other error a stage throws is
/// wrapped, keeping its text as ``message``, and an error type that knows a place can say so by
/// conforming to ``DAQErrorConvertible``.
///
/// Equality compares everything but ``underlying``, which need not be equatable.
public struct DAQError: Error, Sendable, CustomStringConvertible, Equatable {
    /// What kind of failure this is; stable across releases.
    public var code: Code
    /// What went wrong and what was expected: the whole text people read. It names the file and
    /// line or byte itself when there is one (`walk.csv:14: expected 4 columns`), as `daq` prints
    /// it as it is; ``location`` gives the same place to programs.
    public var message: String
    /// The component it concerns (`log`), or `nil` for the pipeline as a whole.
    public var component: String?
    /// Where in a file the problem was found, when it was found in one.
    public var location: Location?
    /// The error this one was made from, if any.
    public var underlying: (any Error)?
    /// How the run's one-line failure names the component, when not by ``component``: a stage
    /// that cannot start has always been named by its key path there (`sinks.log: …`).
    var label: String?

    /// Creates an error.
    /// - Parameters:
    ///   - code: what kind of failure.
    ///   - message: the text people read, naming the place when there is one.
    ///   - component: the component it concerns; the engine fills it in when a stage throws.
    ///   - location: where in a file.
    ///   - underlying: the error it was made from.
    public init(
        _ code: Code, _ message: String, component: String? = nil, location: Location? = nil,
        underlying: (any Error)? = nil
    ) {
        self.code = code
        self.message = message
        self.component = component
        self.location = location
        self.underlying = underlying
    }

    /// The message: what a stage's error has always printed as.
    public var description: String { message }

    /// `component: message`, the run's failure as `daq run` prints it and the manifest keeps it.
    package var failureLine: String {
        guard let name = label ?? component else { return message }
        return "\(name): \(message)"
    }

    public static func == (a: DAQError, b: DAQError) -> Bool {
        a.code == b.code && a.message == b.message && a.component == b.component && a.location == b.location
            && a.label == b.label
    }
}
