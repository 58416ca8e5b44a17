/// The JSON Lines form of samples shared by the `file` sink, `console --format json` and the
/// `exec` protocol: `{"stream":…,"uptime":…,"timestamp":…,"stepPath":…,"kind":…, fields…}`.
///
/// `kind` is written only for markers and events; `stepPath` only when not empty. A field is
/// written when the sample has it, as `null` too; a field only other samples of the batch have
/// is left out (see ``Column/absent``).
public enum SampleJSON {
    /// Appends sample `row` of `batch` as one JSON object and a newline.
    public static func appendLine(_ batch: Batch, row: Int, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "{"))
        appendMetadata(batch, row: row, to: &out)
        let kind = batch.kinds[row]
        for column in batch.columns {
            // A field the sample never had is left out; one it has as null is written as null.
            if column.isAbsent(row) { continue }
            let v = column[row]
            if kind != .data, v.isNull { continue }
            out.append(UInt8(ascii: ","))
            JSONEncoding.appendString(column.name, to: &out)
            out.append(UInt8(ascii: ":"))
            JSONEncoding.append(v, to: &out)
        }
        out.append(contentsOf: "}\n".utf8)
    }

    /// Appends the metadata members of sample `row` — `"stream":…,"uptime":…,"timestamp":…`,
    /// then `"stepPath"` when not empty and `"kind"` when not data — without braces, for the
    /// encodings that put more around them (a transport's message id).
    public static func appendMetadata(_ batch: Batch, row: Int, to out: inout [UInt8]) {
        out.append(contentsOf: #""stream":"#.utf8)
        JSONEncoding.appendString(batch.stream, to: &out)
        out.append(contentsOf: #","uptime":"#.utf8)
        JSONEncoding.appendDouble(batch.uptimes[row], to: &out)
        out.append(contentsOf: #","timestamp":"#.utf8)
        JSONEncoding.appendDouble(batch.timestamps[row], to: &out)
        if !batch.stepPaths[row].isEmpty {
            out.append(contentsOf: #","stepPath":"#.utf8)
            JSONEncoding.appendString(batch.stepPaths[row], to: &out)
        }
        let kind = batch.kinds[row]
        if kind != .data {
            out.append(contentsOf: #","kind":"#.utf8)
            JSONEncoding.appendString(kind.name, to: &out)
        }
    }

    /// The metadata keys that are not fields when a line is read back.
    public static let metadataKeys: Set<String> = ["stream", "uptime", "timestamp", "stepPath", "kind"]
}
