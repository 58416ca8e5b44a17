import DAQCore

/// Keeps the samples for which an expression is true.
public final class FilterTransform: TransformPlugin {
    public struct Configuration: PluginConfiguration {
        @Setting(
            required: "e.g. `value > 0.5 && stepPath == \"walk/outbound\"`; + - * / %, == != < <= > >=, && || !, null.")
        var expr: Expression

        public init() {}
    }

    public static let typeName = "filter"
    public static let summary = "Keeps samples for which an expression over their fields is true."
    public static let output = StreamOutput(
        .input, rate: .irregular, note: "the input's fields; what passes comes irregularly")

    private let expression: Expression

    public init(configuration: Configuration, context: PluginContext) throws {
        expression = configuration.expr
    }

    public func process(_ batch: inout Batch, context: StageContext) throws {
        let (keep, kept) = expression.matches(batch)
        batch.retain(keep, kept: kept)
    }
}
