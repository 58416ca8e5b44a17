/// What a plugin type emits, declared once beside its settings (``PluginMetadata/output``):
/// `daq plugins describe` prints it, and a plugin whose fields are fixed gets its descriptor
/// from it without writing ``Source/describe(context:)`` or ``Transform/describe(input:context:)``.
///
/// ```swift
/// public static let output = StreamOutput(
///     .input, [OutputField("magnitude", .double, unit: "the axes'", "Euclidean norm of x, y and z")])
/// ```
public struct StreamOutput: Sendable {
    /// How the output's fields relate to the input's.
    public enum Shape: Sendable {
        /// Only the fields declared here (a source's, an epoch's).
        case own
        /// The input's fields, then those declared here (a filter, a derived value).
        case input
        /// Fields found in the data as it comes (a JSON Lines file, an external program).
        case free
    }

    /// How the fields relate to the input's.
    public var shape: Shape
    /// The fields it adds or emits, in order.
    public var fields: [OutputField]
    /// The rate, when the type fixes it: `nil` keeps the input's (or irregular for a source).
    public var rate: SampleRate?
    /// What else a reader should know (`<field>_<stat>` for each field and statistic).
    public var note: String?

    /// Declares an output.
    public init(_ shape: Shape, _ fields: [OutputField] = [], rate: SampleRate? = nil, note: String? = nil) {
        self.shape = shape
        self.fields = fields
        self.rate = rate
        self.note = note
    }

    /// What a type says when it declares nothing: fields as they come.
    public static let undeclared = StreamOutput(.free, note: "fields as the data brings them")

    /// The descriptor of this output over `input` (a source has none): the declared fields
    /// with their fixed units, after the input's for ``Shape/input``.
    public func descriptor(input: StreamDescriptor?) -> StreamDescriptor {
        var d: StreamDescriptor
        switch shape {
        case .own:
            d = input ?? StreamDescriptor()
            d.fields = []
        case .input, .free:
            d = input ?? StreamDescriptor()
        }
        for f in fields { d.set(f.descriptor) }
        if let rate { d.rate = rate }
        return d
    }
}

/// One field of a plugin type's output, as `daq plugins describe` documents it.
public struct OutputField: Sendable {
    /// The field as descriptors carry it: its unit here when the type fixes it.
    public var descriptor: FieldDescriptor
    /// Where the unit comes from when the type does not fix it (`the axes'`), for the reference.
    public var unitNote: String?
    /// What the field holds, one line.
    public var summary: String

    /// Declares a field; `unit` is fixed, `unitFrom` says where a unit the data decides comes from.
    public init(
        _ name: String, _ type: FieldType, unit: String? = nil, unitFrom: String? = nil, label: String? = nil,
        _ summary: String
    ) {
        descriptor = FieldDescriptor(name, type, unit: unit, label: label)
        unitNote = unitFrom
        self.summary = summary
    }

    /// The field's name.
    public var name: String { descriptor.name }
}
