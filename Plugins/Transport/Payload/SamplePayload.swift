import DAQCore

/// The JSON payload of an `mqtt` message: one sample as an object, or a batch of samples as an
/// array of objects, in the JSON Lines form of ``SampleJSON`` plus two keys of the transport's:
///
/// - `_msg`: the message id (`<client id>@<run start ms>:<sequence>`), the same in every object
///   of one message. A message re-sent after a reconnect or a restart carries the same id, so a
///   receiver drops the copies it has already seen.
/// - `_bytes`: the names of the fields that hold bytes (written as hex text), so they come back
///   as bytes and not as strings. Present only when there are some.
/// - `_pipeline` and `_host`: the publishing pipeline and the first label of its host's name,
///   so a collector of many edge machines can tell them apart. Optional.
///
/// Numbers keep their type (`3.0` stays a double, `3` an integer), so a sample written by the
/// `mqtt` sink is read back by the `mqtt` source with the same fields, types, timestamp,
/// step path and kind. NaN and infinities, which JSON cannot hold, arrive as `null`.
public enum SamplePayload {
    /// The key holding the message id; the transport's own keys are never fields.
    public static let messageIDKey = "_msg"
    /// The key listing the fields that hold bytes.
    public static let bytesKey = "_bytes"
    /// The key naming the publishing pipeline.
    public static let pipelineKey = "_pipeline"
    /// The key naming the publishing host.
    public static let hostKey = "_host"

    /// The `_pipeline` and `_host` members, rendered once for every payload a sink writes.
    public static func origin(pipeline: String, host: String) -> [UInt8] {
        var out: [UInt8] = []
        for (key, value) in [(pipelineKey, pipeline), (hostKey, host)] {
            out.append(UInt8(ascii: ","))
            JSONEncoding.appendString(key, to: &out)
            out.append(UInt8(ascii: ":"))
            JSONEncoding.appendString(value, to: &out)
        }
        return out
    }

    /// Appends sample `row` of `batch` as one JSON object.
    /// - Parameters:
    ///   - origin: ``origin(pipeline:host:)``, or nothing to leave the sender unnamed.
    public static func append(_ batch: Batch, row: Int, messageID: [UInt8], origin: [UInt8] = [], to out: inout [UInt8])
    {
        out.append(contentsOf: #"{"_msg":""#.utf8)
        out.append(contentsOf: messageID)
        out.append(UInt8(ascii: "\""))
        out.append(contentsOf: origin)
        out.append(UInt8(ascii: ","))
        SampleJSON.appendMetadata(batch, row: row, to: &out)
        let kind = batch.kinds[row]
        var bytesFields = 0
        for column in batch.columns {
            // A field the sample never had is left out; one it has as null is written as null.
            if column.isAbsent(row) { continue }
            let v = column[row]
            if kind != .data, v.isNull { continue }
            if case .bytes = v { bytesFields += 1 }
            out.append(UInt8(ascii: ","))
            JSONEncoding.appendString(column.name, to: &out)
            out.append(UInt8(ascii: ":"))
            JSONEncoding.append(v, to: &out)
        }
        if bytesFields > 0 {
            out.append(contentsOf: #","_bytes":["#.utf8)
            var first = true
            for column in batch.columns {
                guard case .bytes = column[row] else { continue }
                if !first { out.append(UInt8(ascii: ",")) }
                first = false
                JSONEncoding.appendString(column.name, to: &out)
            }
            out.append(UInt8(ascii: "]"))
        }
        out.append(UInt8(ascii: "}"))
    }

    /// A payload that is not what the `mqtt` sink writes.
    public struct DecodingError: Error, CustomStringConvertible {
        /// What is wrong with the payload.
        public var description: String
    }

    /// One decoded sample, with the id of the message that carried it.
    public struct Decoded: Sendable, Equatable {
        /// The `_msg` id, when the payload has one.
        public var messageID: String?
        /// The publishing pipeline (`_pipeline`), when the payload names it.
        public var pipeline: String?
        /// The publishing host (`_host`), when the payload names it.
        public var host: String?
        /// The sample; its uptime is the sender's.
        public var sample: Sample
    }

    /// Reads a payload back: one object or an array of objects.
    /// - Throws: ``DecodingError`` naming what is wrong.
    public static func decode<C: Collection>(_ payload: C) throws -> [Decoded] where C.Element == UInt8 {
        let value: Value
        do {
            value = try JSONParser.parse(payload)
        } catch {
            throw DecodingError(description: "payload is not JSON: \(error)")
        }
        switch value {
        case .object(let o): return [try sample(o)]
        case .array(let items):
            return try items.map { item in
                guard case .object(let o) = item else {
                    throw DecodingError(description: "expected an array of sample objects")
                }
                return try sample(o)
            }
        default:
            throw DecodingError(description: "expected a sample object or an array of them, found \(value.typeName)")
        }
    }

    private static func sample(_ object: Fields) throws -> Decoded {
        var s = Sample(uptime: 0)
        var id: String?
        var pipeline: String?
        var host: String?
        var bytesNames: [String] = []
        var fields = Fields()
        for (k, v) in object.pairs {
            switch k {
            case messageIDKey: id = v.stringValue
            case pipelineKey: pipeline = v.stringValue
            case hostKey: host = v.stringValue
            case bytesKey:
                guard case .array(let names) = v else {
                    throw DecodingError(description: "_bytes must be a list of field names")
                }
                bytesNames = names.compactMap(\.stringValue)
            case "stream": s.stream = v.stringValue ?? ""
            case "uptime": s.uptime = v.doubleValue ?? 0
            case "timestamp":
                guard let t = v.doubleValue else { throw DecodingError(description: "timestamp must be a number") }
                s.timestamp = t
            case "stepPath": s.stepPath = v.stringValue ?? ""
            case "kind":
                guard let name = v.stringValue, let kind = SampleKind.allCases.first(where: { $0.name == name }) else {
                    throw DecodingError(description: "kind must be data, marker or event")
                }
                s.kind = kind
            default: fields[k] = v
            }
        }
        for name in bytesNames {
            guard case .string(let hex)? = fields[name], let bytes = HexBytes.decode(hex) else {
                throw DecodingError(description: "field '\(name)' is listed in _bytes but is not hex text")
            }
            fields[name] = .bytes(bytes)
        }
        s.fields = fields
        return Decoded(messageID: id, pipeline: pipeline, host: host, sample: s)
    }
}
