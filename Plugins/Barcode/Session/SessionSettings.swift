import DAQCore
import Synchronization

/// The session keys every scanner source takes, decoded from the component's own mapping.
struct SessionSettings: Sendable {
    var mode: ScanMode = .continuous
    var timeout: Seconds?
    var triggerFrom: String?
    var control: String?
    var maxLength = 4096

    enum CodingKeys: String, CodingKey {
        case mode, timeout, control
        case triggerFrom = "trigger_from", maxLength = "max_length"
    }

    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        mode = try c.decodeIfPresent(ScanMode.self, forKey: .mode) ?? .continuous
        timeout = try c.decodeIfPresent(Seconds.self, forKey: .timeout)
        triggerFrom = try c.decodeIfPresent(String.self, forKey: .triggerFrom)
        control = try c.decodeIfPresent(String.self, forKey: .control)
        maxLength = try c.decodeIfPresent(Int.self, forKey: .maxLength) ?? 4096
    }

    func validate() throws {
        if let timeout, !(timeout.value > 0) { throw ConfigIssue(key: "timeout", "must be more than 0 s") }
        if maxLength < 1 { throw ConfigIssue(key: "max_length", "must be at least 1 byte") }
        if mode == .continuous && (triggerFrom != nil || control != nil) {
            throw ConfigIssue(key: triggerFrom != nil ? "trigger_from" : "control", "triggers need mode: triggered")
        }
    }

    /// The settings with the control FIFO's path resolved against the pipeline file's
    /// directory; `-` (standard input) stays as it is.
    func resolved(in context: PluginContext) -> SessionSettings {
        var copy = self
        copy.control = control.map { $0 == "-" ? $0 : context.resolve($0) }
        return copy
    }

    /// The timeout in force: triggered sessions wait 5 s unless told; continuous ones only
    /// when a timeout is set (a code whose terminator never comes).
    var effectiveTimeout: Double? { timeout?.value ?? (mode == .triggered ? 5 : nil) }

    static let keys: [ConfigKey] = [
        ConfigKey("mode", ScanMode.choices, default: "continuous", "continuous: each code is a session; triggered: a trigger opens one."),
        ConfigKey("timeout", "seconds", default: "5 s when triggered", "A session still open this long ends in scan.timeout."),
        ConfigKey("trigger_from", "string", "Component whose every sample is a trigger (mode: triggered)."),
        ConfigKey("control", "path", "File, FIFO or - (stdin) of lines 'trigger' and 'cancel' (mode: triggered)."),
        ConfigKey("max_length", "int", default: "4096", "Longest code in bytes; a longer one is reported and dropped."),
    ]
}

/// Commands that reach a source from other threads (a trigger key, a control line, another
/// stage's sample), kept until its next read.
final class CommandInbox: Sendable {
    private let pending = Mutex<[ControlCommand]>([])

    func post(_ command: ControlCommand) {
        pending.withLock { $0.append(command) }
    }

    func take() -> [ControlCommand] {
        pending.withLock { p in
            defer { p.removeAll() }
            return p
        }
    }
}
