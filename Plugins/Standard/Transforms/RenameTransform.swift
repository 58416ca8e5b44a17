import DAQCore

/// Renames fields.
public final class RenameTransform: TransformPlugin {
    public struct Configuration: PluginConfiguration {
        @Setting(required: "Old name → new name.") var fields: [String: String]

        public init() {}

        public func validate() throws {
            if fields.isEmpty { throw $fields.issue("must map at least one old name to a new one") }
            for (from, to) in fields where to.isEmpty {
                throw ConfigIssue(key: "fields.\(from)", "the new name is empty")
            }
        }
    }

    public static let typeName = "rename"
    public static let summary = "Renames fields: `fields: {old: new}`."
    public static let output = StreamOutput(.input, note: "the input's fields, each old name replaced by its new one")

    private let pairs: [(String, String)]

    public init(configuration: Configuration, context: PluginContext) throws {
        pairs = configuration.fields.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }

    /// Renames as ``Batch/renameColumn(_:to:)`` does: a field already named `to` gives way.
    public func describe(input: StreamDescriptor, context: PluginContext) throws -> StreamDescriptor {
        var d = input
        for (from, to) in pairs where from != to {
            guard let i = d.fieldIndex(from) else { continue }
            let renamed = d.fields[i].named(to)
            d.fields[i].name = "\u{0}"
            d.remove(to)
            d.fields[d.fieldIndex("\u{0}")!] = renamed
        }
        return d
    }

    public func process(_ batch: inout Batch, context: StageContext) throws {
        for (from, to) in pairs { batch.renameColumn(from, to: to) }
    }
}
