/// What a component said of a result it recorded with a verdict (a result with an `accepted`
/// flag, such as a calibration fit): whether it was taken, and why.
///
/// A run that finished may still not have done what its pipeline asks (a calibration that
/// could not be fitted leaves the samples unchanged); summaries list these so that no one
/// learns it from a note that scrolled by.
public struct ResultVerdict: Sendable, Equatable, Codable {
    /// The component that recorded it.
    public var component: String
    /// The result's `type` (`motion.calibrate`), or empty when it names none.
    public var type: String
    public var accepted: Bool
    /// Why, in the component's words (`0 still windows, fewer than the 50 a fit needs`).
    public var reason: String

    public init(component: String, type: String, accepted: Bool, reason: String) {
        self.component = component
        self.type = type
        self.accepted = accepted
        self.reason = reason
    }

    /// The verdict in `fields` recorded by `component`, when the result carries one.
    public init?(component: String, fields: Fields) {
        guard let accepted = fields["accepted"]?.boolValue else { return nil }
        self.init(
            component: component, type: fields["type"]?.stringValue ?? "", accepted: accepted,
            reason: fields["reason"]?.stringValue ?? "")
    }

    /// `cal (motion.calibrate) not accepted: 0 still windows, …`
    public var line: String {
        let what = type.isEmpty ? component : "\(component) (\(type))"
        return "\(what) \(accepted ? "accepted" : "not accepted")" + (reason.isEmpty ? "" : ": \(reason)")
    }
}
