/// A descriptor as batches carry it: shared by every batch of the stream until it changes, so
/// a stage tells a change by identity (one pointer compare per batch) and a batch copy costs one
/// reference.
///
/// # Thread safety
/// Immutable.
final class DeclaredStream: Sendable {
    let descriptor: StreamDescriptor
    /// Each field's place, for the per-batch check that every column is declared, in order.
    private let places: [String: Int]

    init(_ descriptor: StreamDescriptor) {
        self.descriptor = descriptor
        var places: [String: Int] = [:]
        for (i, f) in descriptor.fields.enumerated() where places[f.name] == nil { places[f.name] = i }
        self.places = places
    }

    /// Whether `batch` has only declared fields: the common case, a lookup per column.
    func covers(_ batch: Batch) -> Bool {
        for c in batch.columns where places[c.name] == nil { return false }
        return true
    }

    /// Puts the columns of `batch` (all declared) in the descriptor's order, unless they are:
    /// what a sample's fields look like in a file then depends on the stream, never on which
    /// samples shared its batch (a beacon's fields in a batch of one, or of 4,096).
    func order(_ batch: inout Batch) {
        var last = -1
        var ordered = true
        for c in batch.columns {
            let place = places[c.name] ?? Int.max
            if place < last {
                ordered = false
                break
            }
            last = place
        }
        if !ordered { batch.sortColumns { (places[$0] ?? Int.max) < (places[$1] ?? Int.max) } }
    }

    /// The descriptor with each declared field whose type does not take what `batch` holds
    /// widened to take it (an `int` to `double`, anything else to `any`); `nil` when every value
    /// fits. A look at the storage for unboxed columns, a walk of the values for boxed ones: for
    /// sources, whose types come from data (a CSV's first row, a JSON line), not for every stage.
    func retyped(by batch: Batch) -> DeclaredStream? {
        var d: StreamDescriptor?
        for c in batch.columns {
            guard let i = places[c.name] else { continue }
            let declared = (d ?? descriptor).fields[i].type
            guard declared != .any, let found = c.fieldType, found != declared,
                !(declared == .double && found == .int)
            else { continue }
            if d == nil { d = descriptor }
            d!.fields[i].type = declared.widened(with: found)
        }
        return d.map(DeclaredStream.init)
    }

    /// The descriptor widened by the fields `batch` has that it lacks, each typed by its
    /// column (``FieldType/any`` while only nulls were seen).
    func widened(by batch: Batch) -> DeclaredStream {
        var d = descriptor
        for c in batch.columns where places[c.name] == nil {
            d.fields.append(FieldDescriptor(c.name, c.fieldType ?? .any))
        }
        return DeclaredStream(d)
    }
}
