extension Column {
    /// The type of the values this column holds: read off unboxed storage at once, found by a
    /// walk of the values only for boxed storage. `nil` when every value is `null` (nothing is
    /// known yet).
    public var fieldType: FieldType? {
        switch storage {
        case .doubles, .sparseDoubles: return .double
        case .ints, .sparseInts: return .int
        case .strings: return .string
        case .bools: return .bool
        case .values(let values):
            var found: FieldType?
            for v in values {
                guard let t = FieldType(of: v) else { continue }
                found = found.map { $0.widened(with: t) } ?? t
                if found == .any { break }
            }
            return found
        }
    }
}
