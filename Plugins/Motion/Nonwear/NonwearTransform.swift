import DAQCore

/// Finds non-wear: spans in which the device lay still, by GGIR's rule.
///
/// Windows of `window` (60 min) start every `step` (15 min) from the first sample's time; in a
/// window an axis is still when its standard deviation is under `sd_mg` (13 mg) and its range
/// under `range_mg` (150 mg). As in GGIR's 2023 approach (its default), a window flags the
/// axes it found still on every step it covers, and a step is non-wear when at least `axes`
/// (2) of its axes are flagged. Steps are placed by each sample's `timestamp`, so the output
/// is the same at every clock and batch size.
///
/// `mode: flag` passes every sample on with `nonwear` (`field:`) true or false; `mode: drop`
/// leaves the non-wear samples out. Either way each span gives one `event` sample,
/// `event: motion.nonwear`, with `start` and `end` (seconds since 1970, step bounds) and
/// `samples`, after the span's last sample. A step's samples pass on once every window over
/// it is judged, so the stage holds up to a window and a step of samples. At the end of input
/// the windows left are judged on the samples they have, bar one starting in the last step
/// (cut short by the end): a recording shorter than a step is never non-wear.
public final class NonwearTransform: TransformPlugin {
    public typealias Configuration = NonwearConfiguration

    public static let typeName = "motion.nonwear"
    public static let summary =
        "Flags (nonwear: true|false) or drops non-wear: 60 min windows every 15 min where 2 axes have SD < 13 mg and range < 150 mg (GGIR); an event per span."

    public static let output = StreamOutput(
        .input,
        [
            OutputField("nonwear", .bool, "mode: flag: whether the sample is non-wear (named by `field`)"),
            OutputField("event", .string, "on a span's event sample: motion.nonwear"),
            OutputField("start", .double, unit: "s", "the span's first step, seconds since 1970"),
            OutputField("end", .double, unit: "s", "the end of its last step"),
            OutputField("samples", .int, "data samples in the span"),
        ])

    private var stage: NonwearStage
    private let configuration: Configuration

    public init(configuration: Configuration, context: PluginContext) throws {
        self.configuration = configuration
        stage = NonwearStage(configuration)
    }

    public func describe(input: StreamDescriptor, context: PluginContext) throws -> StreamDescriptor {
        var added = Self.output.fields.map(\.descriptor)
        added[0].name = configuration.field
        if configuration.mode == .drop { added.removeFirst() } else { added[0].type = .bool }
        var d = input.setting(added)
        // Samples left out, and the span events among the rest: no longer a fixed rate when dropping.
        if configuration.mode == .drop { d.rate = .irregular }
        return d
    }

    public func process(_ batch: inout Batch, context: StageContext) throws {
        stage.process(&batch, context: context)
    }

    public func finish(context: StageContext) throws -> Batch {
        stage.finish(context: context)
    }
}
