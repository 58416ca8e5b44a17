// The plugin file of a Swift scaffold, one template per kind: small, working plugins that show
// the parts every plugin has (a Configuration of @Setting keys with validation, the protocol's
// methods) and say where a real one differs.
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
            /// The `\#(name.typeName)` keys, each declared once: `daq plugins describe` and decoding read these.
            public struct Configuration: PluginConfiguration {
                @Setting(type: "double (Hz)", "Samples per second of run-clock time.") var rate = 10.0
                @Setting("Samples to produce; omit to run until stopped.") var count: Int?
                @Setting("What `value` rises by from one sample to the next.") var step = 1.0

                public init() {}

                /// Checks what types cannot; `daq` reports the key's file, line and column.
                public func validate() throws {
                    if !(rate > 0) || !rate.isFinite { throw $rate.issue("must be greater than 0 Hz, found \(rate)") }
                    if let count, count < 0 { throw $count.issue("must be 0 or more, found \(count)") }
                }
            }

            public static let typeName = "\#(name.typeName)"
            public static let summary = "Samples `value` (rising by `step`) and `seq` at a fixed rate."

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
            /// The `\#(name.typeName)` keys, each declared once: `daq plugins describe` and decoding read these.
            public struct Configuration: PluginConfiguration {
                @Setting("The numeric field to calibrate.") var field = "value"
                @Setting(whenUnset: "the field", "Where the result goes; omit to replace the field.") var output: String?
                @Setting("Multiplies the field.") var scale = 1.0
                @Setting("Added after scaling.") var offset = 0.0

                public init() {}

                /// Checks what types cannot; `daq` reports the key's file, line and column.
                public func validate() throws {
                    if field.isEmpty { throw $field.issue("must not be empty") }
                    if output?.isEmpty == true { throw $output.issue("must not be empty") }
                    if !scale.isFinite { throw $scale.issue("must be a finite number, found \(scale)") }
                    if !offset.isFinite { throw $offset.issue("must be a finite number, found \(offset)") }
                }
            }

            public static let typeName = "\#(name.typeName)"
            public static let summary = "Linear calibration of one field: output = field × scale + offset."

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
            /// The `\#(name.typeName)` keys, each declared once: `daq plugins describe` and decoding read these.
            public struct Configuration: PluginConfiguration {
                @Setting(type: "path", required: "The file to write; its folder is created.") var path: String
                @Setting("The fields written after uptime; a missing one is empty.") var fields = ["value"]

                public init() {}

                /// Checks what types cannot; `daq` reports the key's file, line and column.
                public func validate() throws {
                    if path.isEmpty { throw $path.issue("must not be empty") }
                    if fields.isEmpty { throw $fields.issue("name at least one field") }
                }
            }

            public static let typeName = "\#(name.typeName)"
            public static let summary = "Writes uptime and chosen fields, tab-separated, one line per sample."

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
