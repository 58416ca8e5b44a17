import DAQCore

/// Readings of a bench multimeter from the text it prints (Keithley 2000-style
/// `FORM:ELEM READ,TST,RNUM` lines), as its logging software saved them: `type: lab.dmm`.
///
/// Each reading becomes a sample with the value under a field named after the unit
/// (`resistance` for `OHM`/`OHM4W`, `voltage`, `current`, `frequency`), `unit`, `reading` (the
/// meter's counter) and `overflow` (true when the meter printed 9.9E37: value `null`).
/// The meter's own `SECS` timer places samples on the run clock, counted from the first
/// line, so a replay keeps the instrument's timing; lines without a timer need `rate`.
public final class DMMSource: SourcePlugin {
    /// What the source does with a line that is not a reading.
    public enum OnBadLine: String, ConfigEnum, Sendable {
        /// Fail the source, naming the file and line.
        case fail
        /// Report the file and line as a warning and go on: meters print noise when replugged.
        case skip
    }

    /// The `lab.dmm` keys, each declared once: decoding and `daq plugins describe` read these.
    public struct Configuration: PluginConfiguration {
        @Setting(required: "The file the meter's readings were logged to, one line per reading.")
        var path: String
        @Setting(
            whenUnset: "from the unit",
            "Name of the value field; default resistance, voltage, current, frequency or value.")
        var field: String?
        @Setting(type: "double (Hz)", "Readings per second, for lines without a SECS element.")
        var rate: Double?
        @Setting("fail stops at a line that is not a reading; skip warns and goes on.")
        var onBadLine = OnBadLine.fail

        public init() {}

        /// Checks names and the rate; `daq` reports the key's line and column.
        public func validate() throws {
            if path.isEmpty { throw $path.issue("must not be empty") }
            if let field, field.isEmpty || ["unit", "reading", "overflow"].contains(field) {
                throw $field.issue("must be a name other than unit, reading and overflow")
            }
            if let rate, !(rate > 0) || !rate.isFinite {
                throw $rate.issue("must be greater than 0 Hz, found \(rate)")
            }
        }
    }

    /// The `type:` in YAML.
    public static let typeName = "lab.dmm"
    public static let summary =
        "Multimeter readings from its text output (READ,TST,RNUM lines), timed by the meter's own clock."

    private let config: Configuration
    private let path: String
    private var reader: LineReader?
    private var firstSeconds: Double?
    private var index = 0

    /// Creates the source; the file is opened in `start`.
    public init(configuration: Configuration, context: PluginContext) throws {
        config = configuration
        path = context.resolve(configuration.path)
    }

    /// Opens the file: a missing one fails the stage before any sample flows.
    public func start(context: StageContext) throws {
        reader = try LineReader(path: path)
    }

    /// Parses up to `limit` readings; `.finished` at the end of the file.
    public func read(into batch: inout Batch, limit: Int, context: StageContext) throws -> SourceStatus {
        guard let reader else { return .finished }
        while batch.count < limit {
            var parsed: Result<DMMReading, DMMReadingError>?
            let status = try reader.nextLine { bytes in
                let line = String(decoding: bytes, as: UTF8.self)
                // Blank lines are what a meter prints between bursts: not a fault.
                guard !line.allSatisfy(\.isWhitespace) else { return }
                parsed = Result { () throws(DMMReadingError) -> DMMReading in try DMMReading(line: Substring(line)) }
            }
            if status == .end { return .finished }
            switch parsed {
            case nil: continue
            case .failure(let error):
                let message = "\(path):\(reader.lineNumber): \(error)"
                if config.onBadLine == .fail { throw DMMReadingError(message) }
                context.warn("skipped \(message)")
            case .success(let reading):
                try append(reading, line: reader.lineNumber, to: &batch, context: context)
            }
        }
        return .more
    }

    private func append(_ reading: DMMReading, line: Int, to batch: inout Batch, context: StageContext) throws {
        let uptime: Double
        if let seconds = reading.seconds {
            let first = firstSeconds ?? seconds
            firstSeconds = first
            uptime = seconds - first
        } else if let rate = config.rate {
            uptime = Double(index) / rate
        } else {
            throw DMMReadingError("\(path):\(line): the reading has no SECS element; set 'rate' to time such readings")
        }
        index += 1
        var fields = Fields()
        fields[config.field ?? Self.field(forUnit: reading.unit)] = reading.value.map(Value.double) ?? .null
        fields["unit"] = .string(reading.unit)
        fields["reading"] = reading.number.map { Value.int(Int64($0)) } ?? .null
        fields["overflow"] = .bool(reading.value == nil)
        batch.append(Sample(timestamp: context.startDate + uptime, uptime: uptime, fields: fields))
    }

    /// Closes the file.
    public func stop(context: StageContext) {
        reader = nil
    }

    /// The field a unit's value goes to when `field` is not set.
    static func field(forUnit unit: String) -> String {
        switch unit {
        case "OHM", "OHM4W": return "resistance"
        case "VDC", "VAC": return "voltage"
        case "ADC", "AAC": return "current"
        case "HZ": return "frequency"
        default: return "value"
        }
    }
}
