import DAQCore

/// The messages the page receives on its event stream (Server-Sent Events), each one JSON line.
///
/// | event | data |
/// |---|---|
/// | `stats` | the control socket's `stats`, the streams' descriptors and the view's own counters, every second |
/// | `data` | one stream's decimated buckets: `{"stream","fields","buckets":[[first,last,step,[min…],[max…]]…]}` |
/// | `mark` | a marker or event sample: `{"stream","t","kind","text"}` |
/// | `log` | a line for the page's log: `{"level","text","t"}` |
/// | `ended` | the run has ended (or the control socket went away) |
/// | `batch` | `daq batch --view`: the batch's progress per recording |
/// | `reset` | a batch moved to its next recording: clear what is shown |
/// | `closing` | the view is stopping: the page stops listening |
enum ViewFrame {
    /// The SSE form of one message: `event: NAME`, `data: JSON` and a blank line.
    static func sse(_ event: String, _ json: [UInt8]) -> [UInt8] {
        var out: [UInt8] = Array("event: \(event)\ndata: ".utf8)
        out.reserveCapacity(out.count + json.count + 2)
        out.append(contentsOf: json)
        out.append(contentsOf: [0x0A, 0x0A])
        return out
    }

    /// A `data` message for `stream`.
    static func data(stream: String, fields: [String], buckets: [ViewDecimator.Bucket]) -> [UInt8] {
        var out: [UInt8] = Array(#"{"stream":"#.utf8)
        JSONEncoding.appendString(stream, to: &out)
        out.append(contentsOf: #","fields":["#.utf8)
        for (i, f) in fields.enumerated() {
            if i > 0 { out.append(UInt8(ascii: ",")) }
            JSONEncoding.appendString(f, to: &out)
        }
        out.append(contentsOf: #"],"buckets":["#.utf8)
        for (i, b) in buckets.enumerated() {
            if i > 0 { out.append(UInt8(ascii: ",")) }
            out.append(UInt8(ascii: "["))
            JSONEncoding.appendDouble(b.first, to: &out)
            out.append(UInt8(ascii: ","))
            JSONEncoding.appendDouble(b.last, to: &out)
            out.append(UInt8(ascii: ","))
            JSONEncoding.appendString(b.step, to: &out)
            for list in [b.min, b.max] {
                out.append(contentsOf: ",[".utf8)
                for (k, v) in list.enumerated() {
                    if k > 0 { out.append(UInt8(ascii: ",")) }
                    if let v { JSONEncoding.appendDouble(v, to: &out) } else { out.append(contentsOf: "null".utf8) }
                }
                out.append(UInt8(ascii: "]"))
            }
            out.append(UInt8(ascii: "]"))
        }
        out.append(contentsOf: "]}".utf8)
        return sse("data", out)
    }

    /// A `mark` message: a marker's step or an event's fields as text, at `t` on the run clock.
    static func mark(stream: String, t: Double, kind: String, text: String) -> [UInt8] {
        var out: [UInt8] = Array(#"{"stream":"#.utf8)
        JSONEncoding.appendString(stream, to: &out)
        out.append(contentsOf: #","t":"#.utf8)
        JSONEncoding.appendDouble(t, to: &out)
        out.append(contentsOf: #","kind":"#.utf8)
        JSONEncoding.appendString(kind, to: &out)
        out.append(contentsOf: #","text":"#.utf8)
        JSONEncoding.appendString(text, to: &out)
        out.append(UInt8(ascii: "}"))
        return sse("mark", out)
    }

    /// A `log` message; `level` is `info`, `warning` or `error`.
    static func log(level: String, text: String, t: Double) -> [UInt8] {
        var out: [UInt8] = Array(#"{"level":"#.utf8)
        JSONEncoding.appendString(level, to: &out)
        out.append(contentsOf: #","text":"#.utf8)
        JSONEncoding.appendString(text, to: &out)
        out.append(contentsOf: #","t":"#.utf8)
        JSONEncoding.appendDouble(t, to: &out)
        out.append(UInt8(ascii: "}"))
        return sse("log", out)
    }
}
