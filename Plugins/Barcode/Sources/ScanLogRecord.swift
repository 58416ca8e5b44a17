import DAQCore

/// One line of a scan log: a code read, or a trigger, cancel or error that shapes sessions.
enum ScanLogRecord {
    case code(text: String, symbology: String?)
    case trigger, cancel
    case error(String)

    struct Bad: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }

    /// JSON Lines: `{"timestamp": s, "code": "…"[, "symbology": "…"]}` or
    /// `{"timestamp": s, "event": "trigger" | "cancel" | "error"[, "reason": "…"]}`.
    static func json(_ line: UnsafeBufferPointer<UInt8>, timeRequired: Bool) throws -> (Double?, ScanLogRecord) {
        let value: Value
        do { value = try JSONParser.parse(line) } catch { throw Bad(message: "invalid JSON: \(error)") }
        guard case .object(let o) = value else { throw Bad(message: "expected a JSON object, found \(value.typeName)") }
        let time = o["timestamp"]?.doubleValue
        if timeRequired && time == nil { throw Bad(message: "no 'timestamp' (seconds)") }
        if let code = o["code"] {
            guard let text = code.stringValue else { throw Bad(message: "'code' must be a string") }
            return (time, .code(text: text, symbology: o["symbology"]?.stringValue))
        }
        switch o["event"]?.stringValue {
        case "trigger": return (time, .trigger)
        case "cancel": return (time, .cancel)
        case "error": return (time, .error(o["reason"]?.stringValue ?? "error"))
        case let other?: throw Bad(message: "unknown event '\(other)': expected trigger, cancel or error")
        case nil: throw Bad(message: "expected 'code' or 'event'")
        }
    }

    /// CSV: `timestamp,code`; the code is the rest of the line and may not hold control characters.
    static func csv(_ line: UnsafeBufferPointer<UInt8>) throws -> (Double, ScanLogRecord) {
        guard let comma = line.firstIndex(of: UInt8(ascii: ",")) else {
            throw Bad(message: "expected timestamp,code")
        }
        guard let t = FastDouble.parse(UnsafeBufferPointer(rebasing: line[..<comma])) else {
            throw Bad(
                message:
                    "the timestamp is not a number: '\(String(decoding: UnsafeBufferPointer(rebasing: line[..<comma]), as: UTF8.self))'"
            )
        }
        let code = UnsafeBufferPointer(rebasing: line[(comma + 1)...])
        if let i = code.firstIndex(where: { $0 < 0x20 || $0 == 0x7F }) {
            throw Bad(
                message:
                    "control character 0x\(String(code[i], radix: 16, uppercase: true)) at column \(comma + 2 + i): codes with control characters go in JSON Lines, escaped (\\u001d)"
            )
        }
        return (t, .code(text: String(decoding: code, as: UTF8.self), symbology: nil))
    }

    /// The time of the log's first timed line, `nil` when no line has one: all a descriptor
    /// reads of a log, to tell dates from times that count from the log's start. A CSV header
    /// and lines that do not read are passed over, as they are not the time of any sample.
    static func firstTime(path: String, csv: Bool) throws -> Double? {
        let reader = try LineReader(path: path)
        var found: Double?
        repeat {
            let read = try reader.nextLine { line in
                found = csv ? (try? Self.csv(line))?.0 : (try? json(line, timeRequired: false))?.0
            }
            guard read == .line else { return nil }
        } while found == nil
        return found
    }
}
