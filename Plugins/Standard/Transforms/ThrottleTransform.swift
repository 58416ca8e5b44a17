import DAQCore

/// Passes at most `rate` samples per second of run-clock time, dropping the rest.
///
/// Time is the samples' own run-clock time, so the result is the same live and replayed.
public final class ThrottleTransform: TransformPlugin {
    public struct Configuration: PluginConfiguration {
        @Setting(type: "double (samples/s)", required: "The most samples per second.") var rate: Double

        public init() {}

        public func validate() throws {
            if !(rate > 0) || !rate.isFinite { throw $rate.issue("must be greater than 0 samples/s, found \(rate)") }
        }
    }

    public static let typeName = "throttle"
    public static let summary = "Passes at most `rate` samples per second of run-clock time."
    public static let output = StreamOutput(.input, note: "at most `rate` Hz: the input's rate when lower")

    private let interval: Double
    private var next = -Double.infinity

    public init(configuration: Configuration, context: PluginContext) throws {
        interval = 1 / configuration.rate
    }

    public func describe(input: StreamDescriptor, context: PluginContext) throws -> StreamDescriptor {
        var d = input
        // A regular stream thinned to a lower rate stays regular; an irregular one stays irregular.
        if let hz = input.rate.hz, hz > 1 / interval { d.rate = .hz(1 / interval) }
        return d
    }

    public func process(_ batch: inout Batch, context: StageContext) throws {
        var keep = [Bool](repeating: false, count: batch.count)
        var kept = 0
        for i in 0..<batch.count where batch.uptimes[i] >= next - 1e-9 {
            keep[i] = true
            kept += 1
            // Step from the schedule, not the sample, so jitter does not erode the rate.
            next = next.isFinite && batch.uptimes[i] - next < interval ? next + interval : batch.uptimes[i] + interval
        }
        batch.retain(keep, kept: kept)
    }
}
