import DAQCore

/// Adds `magnitude` = √(x² + y² + z²).
public final class MagnitudeTransform: TransformPlugin {
    public struct Configuration: PluginConfiguration {
        var x = "x", y = "y", z = "z", output = "magnitude"

        enum CodingKeys: String, CodingKey { case x, y, z, output }

        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            x = try c.decodeIfPresent(String.self, forKey: .x) ?? "x"
            y = try c.decodeIfPresent(String.self, forKey: .y) ?? "y"
            z = try c.decodeIfPresent(String.self, forKey: .z) ?? "z"
            output = try c.decodeIfPresent(String.self, forKey: .output) ?? "magnitude"
        }
    }

    public static let typeName = "motion.magnitude"
    public static let summary = "Adds the vector magnitude √(x² + y² + z²)."
    public static let configKeys: [ConfigKey] = [
        ConfigKey("x", "string", default: "x", "Field of the first axis."),
        ConfigKey("y", "string", default: "y", "Field of the second axis."),
        ConfigKey("z", "string", default: "z", "Field of the third axis."),
        ConfigKey("output", "string", default: "magnitude", "Field to write."),
    ]

    private let config: Configuration

    public init(configuration: Configuration, context: PluginContext) throws {
        config = configuration
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
