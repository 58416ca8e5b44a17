import DAQCore

/// Adds `magnitude` = √(x² + y² + z²).
public final class MagnitudeTransform: TransformPlugin {
    public struct Configuration: PluginConfiguration {
        @Setting("Field of the first axis.") var x = "x"
        @Setting("Field of the second axis.") var y = "y"
        @Setting("Field of the third axis.") var z = "z"
        @Setting("Field to write.") var output = "magnitude"

        public init() {}
    }

    public static let typeName = "motion.magnitude"
    public static let summary = "Adds the vector magnitude √(x² + y² + z²)."
    public static let output = StreamOutput(
        .input, [OutputField("magnitude", .double, unitFrom: "the axes'", "√(x² + y² + z²), named by `output`")])

    private let config: Configuration

    public init(configuration: Configuration, context: PluginContext) throws {
        config = configuration
    }

    public func describe(input: StreamDescriptor, context: PluginContext) throws -> StreamDescriptor {
        input.setting(FieldDescriptor(config.output, .double, unit: input.unit(of: config.x)))
    }

    public func process(_ batch: inout Batch, context: StageContext) throws {
        guard let xc = batch.column(config.x), let yc = batch.column(config.y), let zc = batch.column(config.z) else {
            return
        }
        if let xs = xc.doubles, let ys = yc.doubles, let zs = zc.doubles {
            // Unboxed columns: one tight loop the compiler can vectorize.
            var out = [Double](repeating: 0, count: xs.count)
            for i in 0..<xs.count { out[i] = (xs[i] * xs[i] + ys[i] * ys[i] + zs[i] * zs[i]).squareRoot() }
            batch.setColumn(Column(name: config.output, doubles: out))
            return
        }
        var out = [Value]()
        out.reserveCapacity(batch.count)
        for i in 0..<batch.count {
            if let x = xc.double(at: i), let y = yc.double(at: i), let z = zc.double(at: i) {
                out.append(.double((x * x + y * y + z * z).squareRoot()))
            } else {
                out.append(.null)
            }
        }
        batch.setColumn(Column(name: config.output, values: out))
    }
}
