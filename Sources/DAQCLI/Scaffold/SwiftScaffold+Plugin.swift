// The plugin file of a Swift scaffold, one template per kind: small, working plugins that show
// the parts every plugin has (Configuration with defaults and validation, configKeys, the
// protocol's methods) and say where a real one differs.
extension SwiftScaffold {
    var pluginSource: String {
        switch kind {
        case .source: return sourcePlugin
        case .transform: return transformPlugin
        case .sink: return sinkPlugin
        }
    }

    private var sourcePlugin: String {
        #"""
        import DAQCore

        /// A source, `type: \#(name.typeName)`: `count` samples `rate` times a second, `value` rising by `step`.
        ///
        /// A starting point: replace the body of `read` with what your device or file gives, and
        /// open it in `start`. Keep sample `i`'s time on the run clock, so the same input gives the
        /// same output live, replayed and on the virtual clock.
        public final class \#(type): SourcePlugin {
            /// The `\#(name.typeName)` keys; each has its line in ``configKeys``.
            public struct Configuration: PluginConfiguration {
                var rate = 10.0
                var count: Int?
                var step = 1.0

                enum CodingKeys: String, CodingKey { case rate, count, step }

                public init(from decoder: any Decoder) throws {
                    let c = try decoder.container(keyedBy: CodingKeys.self)
                    rate = try c.decodeIfPresent(Double.self, forKey: .rate) ?? 10
                    count = try c.decodeIfPresent(Int.self, forKey: .count)
                    step = try c.decodeIfPresent(Double.self, forKey: .step) ?? 1
                }

                /// Checks what types cannot; `daq` reports the key's file, line and column.
                public func validate() throws {
                    if !(rate > 0) || !rate.isFinite { throw ConfigIssue(key: "rate", "must be greater than 0 Hz, found \(rate)") }
                    if let count, count < 0 { throw ConfigIssue(key: "count", "must be 0 or more, found \(count)") }
                }
            }

            public static let typeName = "\#(name.typeName)"
            public static let summary = "Samples `value` (rising by `step`) and `seq` at a fixed rate."
            public static let configKeys: [ConfigKey] = [
                ConfigKey("rate", "double (Hz)", default: "10", "Samples per second of run-clock time."),
                ConfigKey("count", "int", "Samples to produce; omit to run until stopped."),
                ConfigKey("step", "double", default: "1", "What `value` rises by from one sample to the next."),
            ]

            private let config: Configuration
            private var next = 0

            /// Builds the source from its validated configuration; `daq` calls it at run start.
            public init(configuration: Configuration, context: PluginContext) throws {
                config = configuration
            }

            /// Opens what the source reads; an error here fails the stage before any sample flows.
            public func start(context: StageContext) throws {}

            /// Appends up to `limit` samples; `.finished` once `count` are out.
            public func read(into batch: inout Batch, limit: Int, context: StageContext) throws -> SourceStatus {
                let end = config.count.map { min($0, next + limit) } ?? next + limit
                while next < end {
                    let uptime = Double(next) / config.rate
                    batch.append(
                        Sample(
                            timestamp: context.startDate + uptime, uptime: uptime,
                            fields: ["seq": .int(Int64(next)), "value": .double(Double(next) * config.step)]))
                    next += 1
                }
                if let count = config.count, next >= count { return .finished }
                return .more
            }

            /// Closes what `start` opened.
            public func stop(context: StageContext) {}
        }

        """#
    }

    private var transformPlugin: String {
        #"""
        import DAQCore

        /// A transform, `type: \#(name.typeName)`: a linear calibration, `output = field × scale + offset`.
        ///
        /// A starting point: replace the loop in `process` with your computation. Work on whole
        /// batches, column by column: a stage gets hundreds of samples per call, not one.
        public final class \#(type): TransformPlugin {
            /// The `\#(name.typeName)` keys; each has its line in ``configKeys``.
            public struct Configuration: PluginConfiguration {
                var field = "value"
                var output: String?
                var scale = 1.0
                var offset = 0.0

                enum CodingKeys: String, CodingKey { case field, output, scale, offset }

                public init(from decoder: any Decoder) throws {
                    let c = try decoder.container(keyedBy: CodingKeys.self)
                    field = try c.decodeIfPresent(String.self, forKey: .field) ?? "value"
                    output = try c.decodeIfPresent(String.self, forKey: .output)
                    scale = try c.decodeIfPresent(Double.self, forKey: .scale) ?? 1
                    offset = try c.decodeIfPresent(Double.self, forKey: .offset) ?? 0
                }

                /// Checks what types cannot; `daq` reports the key's file, line and column.
                public func validate() throws {
                    if field.isEmpty { throw ConfigIssue(key: "field", "must not be empty") }
                    if output?.isEmpty == true { throw ConfigIssue(key: "output", "must not be empty") }
                    if !scale.isFinite { throw ConfigIssue(key: "scale", "must be a finite number, found \(scale)") }
                    if !offset.isFinite { throw ConfigIssue(key: "offset", "must be a finite number, found \(offset)") }
                }
            }

            public static let typeName = "\#(name.typeName)"
            public static let summary = "Linear calibration of one field: output = field × scale + offset."
            public static let configKeys: [ConfigKey] = [
                ConfigKey("field", "string", default: "value", "The numeric field to calibrate."),
                ConfigKey("output", "string", default: "the field", "Where the result goes; omit to replace the field."),
                ConfigKey("scale", "double", default: "1", "Multiplies the field."),
                ConfigKey("offset", "double", default: "0", "Added after scaling."),
            ]

            private let config: Configuration

            /// Builds the transform from its validated configuration; `daq` calls it at run start.
            public init(configuration: Configuration, context: PluginContext) throws {
                config = configuration
            }

            /// Rewrites the batch in place; a sample without a number in `field` gets `null`.
            public func process(_ batch: inout Batch, context: StageContext) throws {
                // A batch without the field (another stream's) passes unchanged.
                guard let input = batch.column(config.field) else { return }
                var values = [Value]()
                values.reserveCapacity(batch.count)
                for i in 0..<batch.count {
                    values.append(input.double(at: i).map { Value.double($0 * config.scale + config.offset) } ?? .null)
                }
                batch.setColumn(Column(name: config.output ?? config.field, values: values))
            }
        }

        """#
    }

    private var sinkPlugin: String {
        #"""
        import DAQCore

        /// A sink, `type: \#(name.typeName)`: one tab-separated line per data sample, `uptime` then `fields`.
        ///
        /// A starting point: replace the file with your destination. `write` hands a batch over;
        /// report it *delivered* once the destination has it for sure (here: after a flush).
        public final class \#(type): SinkPlugin {
            /// The `\#(name.typeName)` keys; each has its line in ``configKeys``.
            public struct Configuration: PluginConfiguration {
                var path: String
                var fields = ["value"]

                enum CodingKeys: String, CodingKey { case path, fields }

                public init(from decoder: any Decoder) throws {
                    let c = try decoder.container(keyedBy: CodingKeys.self)
                    path = try c.decode(String.self, forKey: .path)
                    fields = try c.decodeIfPresent([String].self, forKey: .fields) ?? ["value"]
                }

                /// Checks what types cannot; `daq` reports the key's file, line and column.
                public func validate() throws {
                    if path.isEmpty { throw ConfigIssue(key: "path", "must not be empty") }
                    if fields.isEmpty { throw ConfigIssue(key: "fields", "name at least one field") }
                }
            }

            public static let typeName = "\#(name.typeName)"
            public static let summary = "Writes uptime and chosen fields, tab-separated, one line per sample."
            public static let configKeys: [ConfigKey] = [
                .required("path", "string", "The file to write; its folder is created."),
                ConfigKey("fields", "[string]", default: "[value]", "The fields written after uptime; a missing one is empty."),
            ]

            private let config: Configuration
            private let path: String
            private var file: OutputFile?
            private var undelivered = 0

            /// Builds the sink from its validated configuration; `daq` calls it at run start.
            public init(configuration: Configuration, context: PluginContext) throws {
                config = configuration
                path = context.resolve(configuration.path)
            }

            /// Opens the file; an error here fails the stage before any sample flows.
            public func start(context: StageContext) throws {
                file = try OutputFile(path: path)
                try file?.write((["uptime"] + config.fields).joined(separator: "\t") + "\n")
            }

            /// Writes the data samples of a batch; step markers and events are skipped.
            public func write(_ batch: Batch, context: StageContext) throws {
                guard let file else { return }
                let columns = config.fields.map { batch.column($0) }
                for i in 0..<batch.count where batch.kinds[i] == .data {
                    let cells = columns.map { column in column.map { Self.text($0[i]) } ?? "" }
                    try file.write(([String(batch.uptimes[i])] + cells).joined(separator: "\t") + "\n")
                    undelivered += 1
                }
            }

            /// Pushes what was written to the file and reports it delivered.
            public func flush(context: StageContext) throws {
                try file?.flush()
                if undelivered > 0 { context.delivered(samples: undelivered) }
                undelivered = 0
            }

            /// Closes the file after the last batch.
            public func finish(context: StageContext) throws {
                try flush(context: context)
                try file?.close()
                file = nil
            }

            private static func text(_ value: Value) -> String {
                switch value {
                case .null: return ""
                case .bool(let b): return String(b)
                case .int(let i): return String(i)
                case .double(let d): return String(d)
                case .string(let s): return s
                default: return "\(value)"
                }
            }
        }

        """#
    }
}
