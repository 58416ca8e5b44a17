import DAQCore

/// The JSON Lines protocol between `daq` and an `exec` program (docs/exec-protocol.md).
///
/// Control lines carry a `"daq"` key, which samples never do: daq sends `hello` first and a
/// `batch` line after each batch's samples; the program answers `ack` once it has written its
/// output for a batch (transforms) or stored it (sinks), and may send `error` lines.
enum ExecProtocol {
    static let version = 1

    /// What the program wrote on one line.
    enum Message {
        case sample(meta: Fields, fields: Fields)
        /// What the program will write: its fields, units and rate (docs/exec-protocol.md).
        case describe(StreamDescriptor)
        case ack(batch: Int64)
        case error(String)
    }

    struct BadLine: Error, CustomStringConvertible {
        var description: String
    }

    /// The first line daq writes.
    static func hello(role: PluginKind, component: String, pipeline: String, config: Value) -> [UInt8] {
        var out: [UInt8] = []
        let fields: Fields = [
            "daq": "hello", "protocol": .int(Int64(version)), "role": .string(role.rawValue),
            "component": .string(component), "pipeline": .string(pipeline), "config": config,
        ]
        JSONEncoding.append(.object(fields), to: &out)
        out.append(UInt8(ascii: "\n"))
        return out
    }

    /// A batch's samples, then its `batch` line.
    static func append(_ batch: Batch, number: Int64, to out: inout [UInt8]) {
        for row in 0..<batch.count { SampleJSON.appendLine(batch, row: row, to: &out) }
        out.append(contentsOf: #"{"daq":"batch","batch":"#.utf8)
        out.append(contentsOf: String(number).utf8)
        out.append(contentsOf: #","samples":"#.utf8)
        out.append(contentsOf: String(batch.count).utf8)
        out.append(contentsOf: "}\n".utf8)
    }

    /// Reads one line the program wrote; a blank line is `nil`.
    static func decode(_ line: UnsafeBufferPointer<UInt8>) throws -> Message? {
        if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { return nil }
        let value: Value
        do {
            value = try JSONParser.parse(line)
        } catch {
            throw BadLine(description: "not JSON (\(error)): \(PrintableText.escaped(line))")
        }
        guard case .object(let object) = value else {
            throw BadLine(description: "expected a JSON object, found \(value.typeName)")
        }
        if let control = object["daq"] {
            switch control.stringValue {
            case "ack":
                guard let n = object["batch"]?.intValue else {
                    throw BadLine(description: "an ack without a whole-number 'batch'")
                }
                return .ack(batch: n)
            case "error":
                return .error(object["message"]?.stringValue ?? "(no message)")
            case "describe":
                do {
                    return .describe(try StreamDescriptor(json: object["stream"] ?? .null))
                } catch {
                    throw BadLine(description: "a describe line whose 'stream' is not a descriptor: \(error)")
                }
            default:
                throw BadLine(
                    description:
                        "unknown control line '\(control.stringValue ?? "?")'; expected ack, error or describe")
            }
        }
        var meta = Fields()
        var fields = Fields()
        for (k, v) in object.pairs {
            if SampleJSON.metadataKeys.contains(k) { meta[k] = v } else { fields[k] = v }
        }
        return .sample(meta: meta, fields: fields)
    }

    /// Appends a sample the program wrote: its own times when it gave them, else `now`.
    static func append(meta: Fields, fields: Fields, now: Double, startDate: Double, to batch: inout Batch) {
        let uptime = meta["uptime"]?.doubleValue ?? now
        let timestamp = meta["timestamp"]?.doubleValue ?? startDate + uptime
        let kind = meta["kind"]?.stringValue.flatMap { k in SampleKind.allCases.first { $0.name == k } } ?? .data
        batch.append(
            Sample(
                timestamp: timestamp, uptime: uptime, stepPath: meta["stepPath"]?.stringValue ?? "", kind: kind,
                fields: fields))
    }
}
