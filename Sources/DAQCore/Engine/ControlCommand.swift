/// A command sent to the stages of a running pipeline from outside the data flow: a trigger
/// key pressed in `daq run`, a line on a control socket.
public struct ControlCommand: Sendable, Hashable, CustomStringConvertible {
    /// What to do: `trigger`, `cancel`, or a plugin's own word.
    public var name: String
    /// The component meant, or `nil` for every stage that listens.
    public var target: String?
    /// Run-clock time of the command, when it comes from data (a sample that triggers a scan).
    public var uptime: Double?

    /// Creates a command.
    public init(_ name: String, target: String? = nil, uptime: Double? = nil) {
        self.name = name
        self.target = target
        self.uptime = uptime
    }

    public var description: String { target.map { "\(name) → \($0)" } ?? name }
}
