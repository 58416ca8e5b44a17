import DAQCore

/// Keeps the samples for which an expression is true.
public final class FilterTransform: TransformPlugin {
    public struct Configuration: PluginConfiguration {
        var expression: Expression

        enum CodingKeys: String, CodingKey { case expr }

        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            let text = try c.decode(String.self, forKey: .expr)
            do {
                expression = try Expression(text)
            } catch {
                throw ConfigIssue(key: "expr", error.message, offset: error.offset)
            }
        }
    }

    public static let typeName = "filter"
    public static let summary = "Keeps samples for which an expression over their fields is true."
    public static let configKeys: [ConfigKey] = [
        .required(
            "expr", "expression",
            "e.g. `value > 0.5 && stepPath == \"walk/outbound\"`; + - * / %, == != < <= > >=, && || !, null.")
    ]

    private let expression: Expression

    public init(configuration: Configuration, context: PluginContext) throws {
        expression = configuration.expression
    }

    public func process(_ batch: inout Batch, context: StageContext) throws {
        let (keep, kept) = expression.matches(batch)
        batch.retain(keep, kept: kept)
    }
}
