import DAQCore

/// The keys of the `lsl` source.
public struct LSLSourceSettings: ClockDependentConfiguration {
    @Setting("The stream's name, as its outlet declared it.") var name: String?
    @Setting("The stream's content type (EEG, Markers, Gaze, …): LSL's type, under another key than the plugin's.")
    var streamType: String?
    @Setting(key: "source_id", "The stream's source id: what stays the same when its outlet restarts.")
    var sourceID: String?
    @Setting(
        "An LSL XPath 1.0 predicate on the stream's <info>, e.g. name='EEG' and hostname='lab3'; combined with name, stream_type and source_id by and."
    )
    var query: String?
    @Setting("How long to wait at start for the stream to appear; the run fails to start after it.")
    var timeout = Seconds(10)
    @Setting("How often liblsl is asked for what has arrived (never waiting for it).") var poll = Seconds(0.01)
    @Setting(
        "How much liblsl keeps for the source, in seconds of the stream (×100 samples for an irregular one), while the pipeline holds it back."
    )
    var buffer = Seconds(360)
    @Setting("Seconds a stream may be unseen before it counts as gone (the continuous resolver's forget_after).")
    var forget = Seconds(3)

    public init() {}

    /// The predicate liblsl resolves by.
    var predicate: String {
        var parts: [String] = []
        if let query, !query.isEmpty { parts.append("(\(query))") }
        for (key, value) in [("name", name), ("type", streamType), ("source_id", sourceID)] {
            guard let value else { continue }
            parts.append("\(key)=\(Self.literal(value))")
        }
        return parts.joined(separator: " and ")
    }

    /// What the source looks for, for messages.
    var wanted: String {
        var parts: [String] = []
        if let name { parts.append("name '\(name)'") }
        if let streamType { parts.append("type '\(streamType)'") }
        if let sourceID { parts.append("source_id '\(sourceID)'") }
        if let query { parts.append("query \(query)") }
        return "a stream with " + parts.joined(separator: ", ")
    }

    /// An XPath 1.0 string literal: XPath has no escapes, so a value with `'` is quoted with `"`.
    static func literal(_ value: String) -> String {
        value.contains("'") ? "\"\(value)\"" : "'\(value)'"
    }

    public func validate() throws {
        if name == nil && streamType == nil && sourceID == nil && (query ?? "").isEmpty {
            throw ConfigIssue(key: "", "name the stream to read: give name, stream_type, source_id or query")
        }
        for (value, setting) in [(name, $name), (streamType, $streamType), (sourceID, $sourceID)] {
            if let value, value.contains("'") && value.contains("\"") {
                throw setting.issue("cannot hold both ' and \" (an XPath string has no escapes)")
            }
        }
        if !(timeout.value >= 0) { throw $timeout.issue("must be 0 s or more") }
        if !(poll.value > 0 && poll.value <= 1) { throw $poll.issue("must be more than 0 s and at most 1 s") }
        if !(buffer.value >= 1) { throw $buffer.issue("must be at least 1 s") }
        if !(forget.value > 0) { throw $forget.issue("must be more than 0 s") }
    }

    /// LSL is live: only the realtime clock; and liblsl must be there, said before anything runs.
    public func validate(clock: ClockMode) throws {
        if clock != .realtime {
            throw ConfigIssue(
                key: "",
                "an lsl source reads a live stream, which only the realtime clock can take; this pipeline's clock is \(clock.rawValue): set clock: realtime (replay and virtual are for recordings, such as xdf.replay)"
            )
        }
        do {
            _ = try LSLLibrary.shared()
        } catch {
            throw ConfigIssue(key: "", "\(error)")
        }
    }
}
