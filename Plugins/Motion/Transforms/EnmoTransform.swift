import DAQCore

/// ENMO per epoch: the mean of max(0, |a| − 1 g) over each epoch, in mg, as GGIR, actipy and
/// scikit-digital-health compute it (`truncate: false` keeps the negatives).
///
/// One sample per epoch replaces the input: stamped with the epoch's start (UTC seconds; the
/// epoch is aligned to local midnight in the recording's zone), with fields `enmo_mg`, those
/// `also:` adds (`mad_mg`, `anglez_deg`), `samples` (how many went in), `wear` (the fraction
/// whose `nonwear` field is not true) and `partial` (true only for the last epoch, which the end
/// of input cut short). Its uptime is the epoch's start on the run clock. An epoch is emitted when
/// the first sample past its end arrives; an epoch without samples gives no sample.
public final class EnmoTransform: TransformPlugin {
    public typealias Configuration = EpochConfiguration

    public static let typeName = "motion.enmo"
    public static let summary =
        "ENMO per epoch, max(0, |a| − 1 g) averaged in mg; epochs from local midnight, one sample each, stamped with its start: enmo_mg, samples, wear, partial (also: mad, anglez)."
    public static let output = EpochConfiguration.output(primary: .enmo)

    private var stage: EpochStage
    private let configuration: Configuration

    public init(configuration: Configuration, context: PluginContext) throws {
        self.configuration = configuration
        stage = EpochStage(settings: configuration, primary: .enmo)
    }

    public func describe(input: StreamDescriptor, context: PluginContext) throws -> StreamDescriptor {
        configuration.describe(input: input, primary: .enmo)
    }

    public func process(_ batch: inout Batch, context: StageContext) throws {
        stage.process(&batch, context: context)
    }

    public func finish(context: StageContext) throws -> Batch {
        stage.finish(context: context)
    }
}
