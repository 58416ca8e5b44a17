import DAQCore

/// The keys of the `lsl` sink.
public struct LSLSinkSettings: ClockDependentConfiguration {
    /// The channel formats an outlet may be given.
    enum Format: String, ConfigEnum, Sendable {
        case float32, double64, int32, int16, int64

        var lsl: LSLChannelFormat {
            switch self {
            case .float32: return .float32
            case .double64: return .double64
            case .int32: return .int32
            case .int16: return .int16
            case .int64: return .int64
            }
        }
    }

    @Setting(
        whenUnset: "<pipeline>.<component>, and .<stream> after it when the sink has several inputs",
        "The outlet's stream name; its markers and events go to <name>.markers.")
    var name: String?
    @Setting("The outlet's content type (EEG, Accelerometer, …): LSL's type, under another key than the plugin's.")
    var streamType = ""
    @Setting(
        key: "source_id",
        whenUnset: "a hash of pipeline, component and stream, the same at every run",
        "The outlet's source id: recorders reconnect by it after a restart, so keep it stable.")
    var sourceID: String?
    @Setting(
        whenUnset: "every numeric or boolean field of the input's descriptor",
        "The fields sent as channels, in order; each is labelled, and given its unit, from the descriptor.")
    var channels: [String]?
    @Setting(
        key: "channel_format",
        whenUnset: "int64 when every channel is an int, else double64",
        "The outlet's channel format: float32, double64, int32, int16 or int64.")
    var channelFormat: Format?
    @Setting(
        "How much the outlet keeps for a slow consumer, in seconds of the stream (×100 samples for an irregular one).")
    var maxBuffered = Seconds(360)
    @Setting(
        "At start, wait up to this for every outlet to have a consumer (a recorder) before the first sample; 0 does not wait."
    )
    var waitForConsumers = Seconds(0)
    @Setting("How long the outlets stay up after the last sample, so connected inlets receive it.")
    var linger = Seconds(1)

    public init() {}

    public func validate() throws {
        if let name, name.isEmpty { throw $name.issue("must not be empty") }
        if let channels, channels.isEmpty { throw $channels.issue("name at least one field, or leave it out") }
        if !(maxBuffered.value >= 1) { throw $maxBuffered.issue("must be at least 1 s") }
        if !(waitForConsumers.value >= 0) { throw $waitForConsumers.issue("must be 0 s or more") }
        if !(linger.value >= 0 && linger.value <= 60) { throw $linger.issue("must be between 0 and 60 s") }
    }

    /// An outlet is live: its consumers take samples on LSL's clock as they are pushed, which
    /// the virtual clock (as fast as possible) would crush; and liblsl must be there.
    public func validate(clock: ClockMode) throws {
        if clock == .virtual {
            throw ConfigIssue(
                key: "",
                "an lsl outlet publishes live, and the virtual clock pushes a recording as fast as it can be read, with no spacing for an LSL consumer to keep: use clock: replay (a recording at its own pace) or clock: realtime"
            )
        }
        do {
            _ = try LSLLibrary.shared()
        } catch {
            throw ConfigIssue(key: "", "\(error)")
        }
    }
}
