import DAQCore

/// Renames fields.
public final class RenameTransform: TransformPlugin {
    public struct Configuration: PluginConfiguration {
        var fields: [String: String]

        public func validate() throws {
            if fields.isEmpty { throw ConfigIssue(key: "fields", "must map at least one old name to a new one") }
            for (from, to) in fields where to.isEmpty { throw ConfigIssue(key: "fields.\(from)", "the new name is empty") }
        }
    }

    public static let typeName = "rename"
    public static let summary = "Renames fields: `fields: {old: new}`."
    public static let configKeys: [ConfigKey] = [.required("fields", "{string: string}", "Old name → new name.")]

    private let pairs: [(String, String)]

    public init(configuration: Configuration, context: PluginContext) throws {
        pairs = configuration.fields.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }

    public func process(_ batch: inout Batch, context: StageContext) throws {
        for (from, to) in pairs { batch.renameColumn(from, to: to) }
    }
}
