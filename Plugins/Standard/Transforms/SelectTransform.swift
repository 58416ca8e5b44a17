import DAQCore

/// Keeps only the named fields (in that order), or drops the named ones.
public final class SelectTransform: TransformPlugin {
    public struct Configuration: PluginConfiguration {
        @Setting("Fields to keep, in output order.") var fields: [String]?
        @Setting("Fields to remove (instead of `fields`).") var drop: [String]?

        public init() {}

        public func validate() throws {
            switch (fields, drop) {
            case (nil, nil): throw $fields.issue("give 'fields' to keep or 'drop' to remove")
            case (.some, .some): throw $drop.issue("give either 'fields' or 'drop', not both")
            case (.some(let f), nil) where f.isEmpty: throw $fields.issue("must name at least one field")
            default: break
            }
        }
    }

    public static let typeName = "select"
    public static let summary = "Keeps the named fields in the given order, or drops the named ones."
    public static let output = StreamOutput(
        .input, note: "the input's fields named in `fields`, in that order, or all but `drop`")

    private let keep: [String]?
    private let drop: Set<String>

    public init(configuration: Configuration, context: PluginContext) throws {
        keep = configuration.fields
        drop = Set(configuration.drop ?? [])
    }

    public func describe(input: StreamDescriptor, context: PluginContext) throws -> StreamDescriptor {
        var d = input
        if let keep {
            // A field the input does not declare yet is added by the data when it comes.
            d.fields = keep.compactMap { input.field($0) }
        } else {
            d.fields.removeAll { drop.contains($0.name) }
        }
        return d
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
