import DAQCore

/// MAD per epoch: the mean absolute deviation of |a| from its mean within each epoch, in mg
/// (van Hees' mean amplitude deviation, as GGIR and scikit-digital-health compute it).
///
/// Emits one sample per epoch as ``EnmoTransform`` does, with `mad_mg` in place of `enmo_mg`
/// (and both with `also: [enmo]`). MAD needs the epoch's mean before the deviations, so each
/// epoch's magnitudes are held until it closes: one buffer, reused epoch after epoch.
public final class MadTransform: TransformPlugin {
    public typealias Configuration = EpochConfiguration

    public static let typeName = "motion.mad"
    public static let summary =
        "MAD per epoch, mean ||a| − epoch mean| in mg; epochs from local midnight, one sample each, stamped with its start: mad_mg, samples, wear, partial (also: enmo, anglez)."
    public static let output = EpochConfiguration.output(primary: .mad)

    private var stage: EpochStage
    private let configuration: Configuration

    public init(configuration: Configuration, context: PluginContext) throws {
        self.configuration = configuration
        stage = EpochStage(settings: configuration, primary: .mad)
    }

    public func describe(input: StreamDescriptor, context: PluginContext) throws -> StreamDescriptor {
        configuration.describe(input: input, primary: .mad)
    }

    public func process(_ batch: inout Batch, context: StageContext) throws {
        stage.process(&batch, context: context)
    }

    public func finish(context: StageContext) throws -> Batch {
        stage.finish(context: context)
    }
}
