import DAQCore

/// Keeps only the named fields (in that order), or drops the named ones.
public final class SelectTransform: TransformPlugin {
    public struct Configuration: PluginConfiguration {
        var fields: [String]?
        var drop: [String]?

        public func validate() throws {
            switch (fields, drop) {
            case (nil, nil): throw ConfigIssue(key: "fields", "give 'fields' to keep or 'drop' to remove")
            case (.some, .some): throw ConfigIssue(key: "drop", "give either 'fields' or 'drop', not both")
            case (.some(let f), nil) where f.isEmpty: throw ConfigIssue(key: "fields", "must name at least one field")
            default: break
            }
        }
    }

    public static let typeName = "select"
    public static let summary = "Keeps the named fields in the given order, or drops the named ones."
    public static let configKeys: [ConfigKey] = [
        ConfigKey("fields", "[string]", "Fields to keep, in output order."),
        ConfigKey("drop", "[string]", "Fields to remove (instead of `fields`)."),
    ]

    private let keep: [String]?
    private let drop: Set<String>

    public init(configuration: Configuration, context: PluginContext) throws {
        keep = configuration.fields
        drop = Set(configuration.drop ?? [])
    }

    public func process(_ batch: inout Batch, context: StageContext) throws {
        if let keep {
            batch.retainColumns { keep.contains($0) }
            batch.reorderColumns(keep)
        } else {
            batch.retainColumns { !drop.contains($0) }
        }
    }
}
