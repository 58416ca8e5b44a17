/// What a source's ``Source/read(into:limit:context:)`` says about what comes next.
public enum SourceStatus: Sendable, Equatable {
    /// More samples are ready: the engine calls `read` again as soon as downstream has room.
    case more
    /// Nothing is ready now; the source calls ``StageContext/wake()`` when it has data.
    case idle
    /// The source is exhausted (a file read to its end, a generator past its count).
    case finished
}

/// Produces samples. The engine pulls: it calls `read` on the stage's serial queue only while
/// every downstream buffer has room, so backpressure reaches the source without blocking a
/// thread, and paces what was read by the run clock.
///
/// A live source (a device, a socket) returns ``SourceStatus/idle`` when nothing is waiting and
/// calls ``StageContext/wake()`` from its I/O callback.
///
/// # Thread safety
/// Every method is called on the stage's serial queue, never concurrently.
public protocol Source: AnyObject {
    /// Opens devices and files. Errors fail the stage before any sample flows.
    func start(context: StageContext) throws
    /// Appends up to `limit` samples to `batch` and says whether more will come.
    func read(into batch: inout Batch, limit: Int, context: StageContext) throws -> SourceStatus
    /// Releases what `start` opened. Called once, after the last `read`.
    func stop(context: StageContext)
    /// Called once when the run ends the source before its input did — the run stopped or was
    /// cancelled, or `--duration` or `--max-samples` was reached — after the last `read` and
    /// before `stop`: appends what closes what the source holds open (a scan session's
    /// `scan.cancel` and `scan.stop`), stamped at `uptime`, the run-clock time of the end, so a
    /// stopped run's output is as well-formed as a finished one's. Not called after `read`
    /// returned ``SourceStatus/finished``: the source closed everything itself then.
    func cutShort(into batch: inout Batch, at uptime: Double, context: StageContext) throws
    /// Says what the source emits before it emits anything: fields with types and units,
    /// nominal rate, time base and zone, origin. Called when a run is built (before
    /// ``start(context:)``) and by `daq describe`, which runs nothing: a source that reads a
    /// file reads only what it needs of it here (a header), and a live source touches no device.
    /// A field the source meets later (a JSON Lines key) widens the descriptor when it comes.
    /// - Throws: when the stream cannot be known (the file is missing or has no header).
    func describe(context: PluginContext) throws -> StreamDescriptor
}

extension Source {
    public func describe(context: PluginContext) throws -> StreamDescriptor { StreamDescriptor() }
    public func start(context: StageContext) throws {}
    public func stop(context: StageContext) {}
    public func cutShort(into batch: inout Batch, at uptime: Double, context: StageContext) throws {}
}

/// Turns batches into batches: filters, maps, windows, parsers.
///
/// The engine wraps a transform into a stage, as NIO wraps a `ByteToMessageDecoder` into a
/// handler: the author implements `process` and, when it keeps state, `finish`.
///
/// # Thread safety
/// Every method is called on the stage's serial queue, never concurrently.
public protocol Transform: AnyObject {
    /// Called once before the first batch.
    func start(context: StageContext) throws
    /// Rewrites `batch` in place into this stage's output; leave it empty to emit nothing.
    func process(_ batch: inout Batch, context: StageContext) throws
    /// Called once when every input has ended: returns what state still holds (an open window).
    func finish(context: StageContext) throws -> Batch
    /// Called when the run clock reaches a time the transform asked for with
    /// ``StageContext/requestTick(atUptime:)``: returns what is due (a window no data closed).
    func tick(now: Double, context: StageContext) throws -> Batch
    /// Says what the transform emits, given what its input is (the merge of its inputs'
    /// descriptors when it has several). Called when a run is built, by `daq describe`, and
    /// again, in order with the data, whenever an input's descriptor changes.
    /// - Throws: when the input cannot feed it (a field it needs is not there).
    func describe(input: StreamDescriptor, context: PluginContext) throws -> StreamDescriptor
}

extension Transform {
    public func describe(input: StreamDescriptor, context: PluginContext) throws -> StreamDescriptor { input }
    public func start(context: StageContext) throws {}
    public func finish(context: StageContext) throws -> Batch { Batch() }
    public func tick(now: Double, context: StageContext) throws -> Batch { Batch() }
}

/// Consumes batches: writes files, prints, sends over a network.
///
/// After `write` returns the engine reports the batch as *sent*; the sink reports *delivered*
/// (or *failed*) through ``StageContext/delivered(samples:bytes:)`` once the destination has
/// acknowledged it: a flush or fsync for files, a broker ack for a transport.
///
/// # Thread safety
/// Every method is called on the stage's serial queue, never concurrently.
public protocol Sink: AnyObject {
    /// Opens the destination.
    func start(context: StageContext) throws
    /// Writes one batch, which may hold step markers (`kind == .marker`) among the data.
    func write(_ batch: Batch, context: StageContext) throws
    /// Pushes buffered bytes to the destination; called on the flush interval and before `finish`.
    func flush(context: StageContext) throws
    /// Closes the destination after the last batch.
    func finish(context: StageContext) throws
    /// Whether the step markers among the batches reach the destination. A sink that leaves
    /// them out (`markers: false`) says so, and its *sent* count leaves them out too: sent and
    /// delivered then count the same samples, and a gap between them means loss.
    var sendsMarkers: Bool { get }
}

extension Sink {
    public var sendsMarkers: Bool { true }
    public func start(context: StageContext) throws {}
    public func flush(context: StageContext) throws {}
    public func finish(context: StageContext) throws {}
}

/// A plugin's configuration: the component's YAML keys, minus `type`, `inputs` and `buffer`,
/// each declared once with ``Setting``.
///
/// Decoding checks types; ``validate()`` checks what types cannot (a window of 0 s) and throws
/// ``ConfigIssue`` naming the key (`$window.issue("must be more than 0 s")`), so the message
/// points at the line and column of that key.
public protocol PluginConfiguration: SettingGroup {
    /// Checks values beyond their types.
    /// - Throws: ``ConfigIssue`` for the first value that is out of range.
    func validate() throws
}

extension PluginConfiguration {
    public func validate() throws {}
}

/// The static description every plugin type gives: its name, a summary and its keys.
public protocol PluginMetadata {
    /// The configuration type decoded from the component's YAML.
    associatedtype Configuration: PluginConfiguration
    /// The `type:` name in YAML, unique within its kind.
    static var typeName: String { get }
    /// One line that `daq plugins` prints.
    static var summary: String { get }
    /// Every key the configuration accepts, as `daq plugins describe` documents them: by
    /// default the configuration's ``Setting``s, which is what decoding reads.
    static var configKeys: [ConfigKey] { get }
    /// Whether the plugin changes the run's step (``StageContext/changeStep(to:at:)``), as a
    /// scanned step card does. Sinks then write their stop marker only after it has ended, so
    /// a sink that does not read it still marks every step it made.
    static var changesSteps: Bool { get }
    /// What the type emits, for `daq plugins describe`; the default ``Source/describe(context:)``
    /// and ``Transform/describe(input:context:)`` of a plugin build its descriptor from it.
    static var output: StreamOutput { get }
}

extension PluginMetadata {
    public static var changesSteps: Bool { false }
    public static var output: StreamOutput { .undeclared }
    public static var configKeys: [ConfigKey] { Configuration.declaredKeys }
}

extension SourcePlugin {
    public func describe(context: PluginContext) throws -> StreamDescriptor {
        Self.output.descriptor(input: nil)
    }
}

extension TransformPlugin {
    public func describe(input: StreamDescriptor, context: PluginContext) throws -> StreamDescriptor {
        Self.output.descriptor(input: input)
    }
}

/// A source type that the registry can build from configuration.
public protocol SourcePlugin: Source, PluginMetadata {
    /// Builds the source; called at run start, after validation.
    init(configuration: Configuration, context: PluginContext) throws
}

/// A transform type that the registry can build from configuration.
public protocol TransformPlugin: Transform, PluginMetadata {
    /// Builds the transform; called at run start, after validation.
    init(configuration: Configuration, context: PluginContext) throws
}

/// A sink type that the registry can build from configuration.
public protocol SinkPlugin: Sink, PluginMetadata {
    /// Builds the sink; called at run start, after validation.
    init(configuration: Configuration, context: PluginContext) throws
}

/// What a plugin may know when it is built: names and pipeline-wide settings, not the queues.
public struct PluginContext: Sendable {
    /// The component's name in the pipeline.
    public var componentName: String
    /// The pipeline's name.
    public var pipelineName: String
    /// The directory relative paths in the configuration are resolved against.
    public var baseDirectory: String
    /// The pipeline's clock mode.
    public var clock: ClockMode

    /// Creates a context.
    public init(componentName: String, pipelineName: String, baseDirectory: String, clock: ClockMode) {
        self.componentName = componentName
        self.pipelineName = pipelineName
        self.baseDirectory = baseDirectory
        self.clock = clock
    }

    /// Resolves `path` against ``baseDirectory`` unless it is absolute or `-`.
    public func resolve(_ path: String) -> String {
        if path.hasPrefix("/") || path == "-" || baseDirectory.isEmpty { return path }
        return baseDirectory.hasSuffix("/") ? baseDirectory + path : baseDirectory + "/" + path
    }
}
