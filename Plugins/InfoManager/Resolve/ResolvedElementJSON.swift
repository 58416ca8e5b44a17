import DAQCore

/// The JSON Lines element `infomanager.resolve` writes as a sink, one per id.
enum ResolvedElementJSON {
    /// Appends `{"id", "input_type", "state", "uptime", "timestamp", "stepPath"?, "input", "data"}`
    /// and a newline; `input` is the first (only) sample of `input`, `data` null without an answer.
    /// `input_type` is the configured one, else the answer's, else null.
    static func append(id: String, inputType: InputType?, outcome: ResolveOutcome, input: Batch, to out: inout [UInt8])
    {
        out.append(contentsOf: #"{"id":"#.utf8)
        JSONEncoding.appendString(id, to: &out)
        out.append(contentsOf: #","input_type":"#.utf8)
        if let type = inputType ?? outcome.answer?.inputType {
            JSONEncoding.appendString(type.rawValue, to: &out)
        } else {
            out.append(contentsOf: "null".utf8)
        }
        out.append(contentsOf: #","state":"#.utf8)
        JSONEncoding.appendString(outcome.state.rawValue, to: &out)
        out.append(contentsOf: #","uptime":"#.utf8)
        JSONEncoding.appendDouble(input.uptimes[0], to: &out)
        out.append(contentsOf: #","timestamp":"#.utf8)
        JSONEncoding.appendDouble(input.timestamps[0], to: &out)
        if !input.stepPaths[0].isEmpty {
            out.append(contentsOf: #","stepPath":"#.utf8)
            JSONEncoding.appendString(input.stepPaths[0], to: &out)
        }
        out.append(contentsOf: #","input":{"#.utf8)
        var first = true
        for column in input.columns {
            let v = column[0]
            if v.isNull { continue }
            if !first { out.append(UInt8(ascii: ",")) }
            first = false
            JSONEncoding.appendString(column.name, to: &out)
            out.append(UInt8(ascii: ":"))
            JSONEncoding.append(v, to: &out)
        }
        out.append(contentsOf: #"},"data":"#.utf8)
        if let a = outcome.answer {
            out.append(UInt8(ascii: "{"))
            let pairs: [(String, String?)] = [
                ("language", a.language), ("name", a.name), ("description", a.description), ("url", a.url),
                ("image_url", a.imageURL), ("updated", a.updated),
            ]
            var firstField = true
            for (key, value) in pairs {
                guard let value else { continue }
                if !firstField { out.append(UInt8(ascii: ",")) }
                firstField = false
                JSONEncoding.appendString(key, to: &out)
                out.append(UInt8(ascii: ":"))
                JSONEncoding.appendString(value, to: &out)
            }
            out.append(UInt8(ascii: "}"))
        } else {
            out.append(contentsOf: "null".utf8)
        }
        out.append(contentsOf: "}\n".utf8)
    }
}
