/// Something fields are written into by name: a ``Fields`` being built, or a row of a
/// ``Batch`` being filled in place.
///
/// A source that decodes many fields per sample (a BLE report) writes through this so the
/// same decoder can fill a batch row directly, without building a `Fields` per sample only to
/// take it apart again.
public protocol FieldWriter {
    /// The value written for `key` so far, `nil` when none. Setting replaces an earlier value.
    subscript(key: String) -> Value? { get set }

    /// Writes `.int(value)`; a batch row stores it without boxing it in a ``Value``.
    mutating func set(_ key: String, int value: Int64)
    /// Writes `.double(value)`; a batch row stores it without boxing it in a ``Value``.
    mutating func set(_ key: String, double value: Double)
    /// Writes `.string(value)`; a batch row stores it without boxing it in a ``Value``.
    mutating func set(_ key: String, string value: String)
}

extension FieldWriter {
    public mutating func set(_ key: String, int value: Int64) { self[key] = .int(value) }
    public mutating func set(_ key: String, double value: Double) { self[key] = .double(value) }
    public mutating func set(_ key: String, string value: String) { self[key] = .string(value) }
}

extension Fields: FieldWriter {}
