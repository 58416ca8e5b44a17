import DAQCore

/// The z-axis angle per epoch: the mean of atan(z / √(x² + y²)) in degrees, as GGIR and actipy
/// define it for sleep detection (at x = y = 0 it is ±90°, and 0 for a zero vector).
///
/// Emits one sample per epoch as ``EnmoTransform`` does, with `anglez_deg` in place of `enmo_mg`.
public final class AnglezTransform: TransformPlugin {
    public typealias Configuration = EpochConfiguration

    public static let typeName = "motion.anglez"
    public static let summary =
        "Mean z-axis angle per epoch, atan(z / √(x² + y²)) in degrees; epochs from local midnight, one sample each, stamped with its start: anglez_deg, samples, wear, partial (also: enmo, mad)."
    public static let output = EpochConfiguration.output(primary: .anglez)

    private var stage: EpochStage
    private let configuration: Configuration

    public init(configuration: Configuration, context: PluginContext) throws {
        self.configuration = configuration
        stage = EpochStage(settings: configuration, primary: .anglez)
    }

    public func describe(input: StreamDescriptor, context: PluginContext) throws -> StreamDescriptor {
        configuration.describe(input: input, primary: .anglez)
    }

    public func process(_ batch: inout Batch, context: StageContext) throws {
        stage.process(&batch, context: context)
    }

    public func finish(context: StageContext) throws -> Batch {
        stage.finish(context: context)
    }
}
