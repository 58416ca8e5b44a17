/// What a StreamHeader chunk says about a stream: the `<info>` fields LSL's stream info has,
/// and each channel's label, unit and type from `desc/channels/channel`.
public struct XDFStreamInfo: Sendable {
    /// The stream's id in the file: what its chunks carry.
    public var id: UInt32
    /// `name`.
    public var name: String
    /// `type` (EEG, Markers, …).
    public var type: String
    /// `channel_count`.
    public var channelCount: Int
    /// `nominal_srate`, 0 for an irregular stream.
    public var nominalRate: Double
    /// `channel_format`.
    public var format: XDFChannelFormat
    /// `source_id`, when the outlet set one.
    public var sourceID: String?
    /// `hostname` of the outlet's machine.
    public var hostname: String?
    /// `created_at`: the outlet's creation on its machine's LSL clock.
    public var createdAt: Double?
    /// Each channel's `label`, `nil` where the header gives none.
    public var labels: [String?]
    /// Each channel's `unit`.
    public var units: [String?]
    /// Each channel's `type`.
    public var channelTypes: [String?]
    /// The whole `<info>` element, for what the fields above leave out.
    public var header: XDFElement

    /// Reads a StreamHeader's XML.
    /// - Throws: a message saying which element is missing or wrong.
    init(id: UInt32, header: XDFElement) throws(XDFHeaderProblem) {
        self.id = id
        self.header = header
        name = header.value("name") ?? "stream \(id)"
        type = header.value("type") ?? ""
        guard let count = header.value("channel_count").flatMap({ Int($0) }), count >= 0, count <= 1 << 20 else {
            throw XDFHeaderProblem(
                "channel_count must be a whole number, found '\(header.value("channel_count") ?? "")'")
        }
        channelCount = count
        let rate = header.value("nominal_srate").flatMap { Double($0) } ?? 0
        nominalRate = rate.isFinite && rate > 0 ? rate : 0
        let formatName = header.value("channel_format") ?? ""
        guard let format = XDFChannelFormat(rawValue: formatName) else {
            let names = XDFChannelFormat.allCases.map(\.rawValue).joined(separator: ", ")
            throw XDFHeaderProblem("channel_format must be one of \(names), found '\(formatName)'")
        }
        self.format = format
        sourceID = header.value("source_id")
        hostname = header.value("hostname")
        createdAt = header.value("created_at").flatMap { Double($0) }
        let channels = header.at("desc", "channels")?.children("channel") ?? []
        labels = (0..<count).map { $0 < channels.count ? channels[$0].value("label") : nil }
        units = (0..<count).map { $0 < channels.count ? channels[$0].value("unit") : nil }
        channelTypes = (0..<count).map { $0 < channels.count ? channels[$0].value("type") : nil }
    }

    /// The time between samples that carry no time stamp of their own: 1 / nominal rate, 0 for
    /// an irregular stream (the specification's rule, which pyxdf follows).
    public var deducedInterval: Double { nominalRate > 0 ? 1 / nominalRate : 0 }
}

/// A StreamHeader whose XML lacks what a reader needs.
struct XDFHeaderProblem: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
