import DAQCore

/// A meter's own error type that knows where in its file it was found.
struct MeterFault: DAQErrorConvertible, CustomStringConvertible {
    static let code = DAQError.Code(rawValue: "test.meter_fault")
    var offset: Int64
    var description: String { "meter.bin at byte \(offset): checksum mismatch" }
    var daqError: DAQError {
        DAQError(Self.code, description, location: DAQError.Location(file: "meter.bin", byteOffset: offset))
    }
}

/// A transform that throws on the sample whose `seq` equals `fail_at`: a located ``DAQError``
/// (`as: daq`) or a ``DAQErrorConvertible`` error (`as: convertible`).
final class LocatedFailureTransform: TransformPlugin {
    struct Configuration: PluginConfiguration {
        @Setting(required: "seq that fails") var failAt: Int
        @Setting(key: "as", required: "daq or convertible") var kind: String
    }
    static let typeName = "located_failure"
    static let summary = "test transform that throws an error with a place"
    static let located = DAQError(
        .badInput, "readings.csv:7:3: expected a number, found 'x'",
        location: DAQError.Location(file: "readings.csv", line: 7, column: 3))
    let failAt: Int64
    let convertible: Bool
    init(configuration: Configuration, context: PluginContext) throws {
        failAt = Int64(configuration.failAt)
        convertible = configuration.kind == "convertible"
    }
    func process(_ batch: inout Batch, context: StageContext) throws {
        guard let c = batch.column("seq"), (0..<batch.count).contains(where: { c[$0].intValue == failAt }) else {
            return
        }
        if convertible { throw MeterFault(offset: 4096) }
        throw Self.located
    }
}

/// A transform that, on its first batch, tells a notice and a warning.
final class ChattyTransform: TransformPlugin {
    struct Configuration: PluginConfiguration {}
    static let typeName = "chatty"
    static let summary = "test transform that notices and warns"
    private var told = false
    init(configuration: Configuration, context: PluginContext) throws {}
    func process(_ batch: inout Batch, context: StageContext) throws {
        guard !told else { return }
        told = true
        context.notice("found 3 axes")
        context.warn("skipped a row")
    }
}
