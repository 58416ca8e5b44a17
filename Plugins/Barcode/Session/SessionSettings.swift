import DAQCore
import Synchronization

/// The session keys every scanner source takes, at the level of the component's own keys.
struct SessionSettings: SettingGroup {
    /// How long a triggered session waits for a code when `timeout` is not given.
    static let triggeredTimeout = Seconds(5)

    @Setting("continuous: each code is a session; triggered: a trigger opens one.") var mode = ScanMode.continuous
    @Setting(
        whenUnset: "\(SessionSettings.triggeredTimeout.configText ?? "") when triggered",
        "A session still open this long ends in scan.timeout.")
    var timeout: Seconds?
    @Setting("Component whose every sample is a trigger (mode: triggered).") var triggerFrom: String?
    @Setting(type: "path", "File, FIFO or - (stdin) of lines 'trigger' and 'cancel' (mode: triggered).") var control:
        String?
    @Setting("Longest code in bytes; a longer one is reported and dropped.") var maxLength = 4096

    init() {}

    func validate() throws {
        if let timeout, !(timeout.value > 0) { throw $timeout.issue("must be more than 0 s") }
        if maxLength < 1 { throw $maxLength.issue("must be at least 1 byte") }
        if mode == .continuous && (triggerFrom != nil || control != nil) {
            throw (triggerFrom != nil ? $triggerFrom : $control).issue("triggers need mode: triggered")
        }
    }

    /// The settings with the control FIFO's path resolved against the pipeline file's
    /// directory; `-` (standard input) stays as it is.
    func resolved(in context: PluginContext) -> SessionSettings {
        var copy = self
        copy.control = control.map { $0 == "-" ? $0 : context.resolve($0) }
        return copy
    }

    /// The timeout in force: triggered sessions wait ``triggeredTimeout`` unless told;
    /// continuous ones only when a timeout is set (a code whose terminator never comes).
    var effectiveTimeout: Double? { (timeout ?? (mode == .triggered ? Self.triggeredTimeout : nil))?.value }
}

/// How often a device source looks for its lost device: a key of both device sources.
struct ReopenSettings: SettingGroup {
    @Setting("How often a lost device is looked for.") var reopenInterval = Seconds(1)

    init() {}

    func validate() throws {
        if !(reopenInterval.value > 0) { throw $reopenInterval.issue("must be more than 0 s") }
    }
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
