import DAQCore

/// The key/value metadata of a file's footer: what a reader needs beyond the schema.
///
/// - `daq.stream`: the stream's name.
/// - `daq.units`: `{"field": "unit", …}` for every field that has a unit.
/// - `daq.descriptor`: the stream descriptor as JSON (the manifest's shape), fields, rate,
///   time base and zone, origin and metadata.
enum ParquetFooterMetadata {
    static func keyValues(stream: String, descriptor: StreamDescriptor?, layout: ParquetLayout)
        -> [(key: String, value: String)]
    {
        var units = Fields()
        for column in layout.columns {
            if let unit = layout.units[column.name] { units[column.name] = .string(unit) }
        }
        var result: [(key: String, value: String)] = [("daq.stream", stream), ("daq.units", json(.object(units)))]
        if let descriptor { result.append(("daq.descriptor", json(.object(descriptor.jsonFields)))) }
        return result
    }

    private static func json(_ value: Value) -> String {
        var bytes: [UInt8] = []
        JSONEncoding.append(value, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }
}
