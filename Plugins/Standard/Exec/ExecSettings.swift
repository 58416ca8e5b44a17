import DAQCore
import Foundation

/// What an `exec` component does when its program fails (exits, hangs, writes nonsense).
public enum ExecFailurePolicy: String, ConfigEnum, Sendable {
    /// The stage fails and the run stops, naming the reason and the program's last stderr lines.
    case fail
    /// The program is started again after a backoff (doubling up to 30 s), at most `max_restarts`
    /// times; batches it had not acknowledged are sent again.
    case restart
}

/// The settings every `exec` plugin shares.
public struct ExecSettings: PluginConfiguration {
    var command: [String] = []
    var env: [String: String] = [:]
    var cwd = ""
    var timeout: Seconds?
    var onFailure = ExecFailurePolicy.fail
    var restartDelay = Seconds(0.5)
    var maxRestarts = 5
    var maxLine = 16 << 20
    var config: Value = .null

    enum CodingKeys: String, CodingKey {
        case command, env, cwd, timeout, onFailure = "on_failure", restartDelay = "restart_delay"
        case maxRestarts = "max_restarts", maxLine = "max_line", config
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        command = try c.decode([String].self, forKey: .command)
        env = try c.decodeIfPresent([String: String].self, forKey: .env) ?? [:]
        cwd = try c.decodeIfPresent(String.self, forKey: .cwd) ?? ""
        timeout = try c.decodeIfPresent(Seconds.self, forKey: .timeout)
        onFailure = try c.decodeIfPresent(ExecFailurePolicy.self, forKey: .onFailure) ?? .fail
        restartDelay = try c.decodeIfPresent(Seconds.self, forKey: .restartDelay) ?? Seconds(0.5)
        maxRestarts = try c.decodeIfPresent(Int.self, forKey: .maxRestarts) ?? 5
        maxLine = try c.decodeIfPresent(Int.self, forKey: .maxLine) ?? 16 << 20
        config = try c.decodeIfPresent(AnyValue.self, forKey: .config)?.value ?? .null
    }

    public func validate() throws {
        if command.isEmpty || command[0].isEmpty { throw ConfigIssue(key: "command", "name the program and its arguments: [python3, transform.py]") }
        if let timeout, !(timeout.value > 0) { throw ConfigIssue(key: "timeout", "must be more than 0 s") }
        if !(restartDelay.value >= 0) { throw ConfigIssue(key: "restart_delay", "must be 0 s or more") }
        if maxRestarts < 0 { throw ConfigIssue(key: "max_restarts", "must be 0 or more") }
        if maxLine < 1024 { throw ConfigIssue(key: "max_line", "must be at least 1024 bytes") }
    }

    static let keys: [ConfigKey] = [
        .required("command", "[string]", "The program and its arguments, found on PATH: [python3, scale.py]."),
        ConfigKey("env", "{string: string}", "Environment variables added for the program."),
        ConfigKey("cwd", "string", "Working directory of the program (relative to where daq runs)."),
        ConfigKey("timeout", "seconds", default: "30 s (none for sources)", "A program silent this long while owing output counts as hung."),
        ConfigKey("on_failure", ExecFailurePolicy.choices, default: "fail", "What a program that exits, hangs or writes a bad line gets."),
        ConfigKey("restart_delay", "seconds", default: "500 ms", "Wait before the first restart; doubled each time up to 30 s."),
        ConfigKey("max_restarts", "int", default: "5", "Restarts allowed before the stage fails."),
        ConfigKey("max_line", "int (bytes)", default: "16777216", "A line from the program longer than this is an error."),
        ConfigKey("config", "any", "Passed to the program in the hello line, as JSON."),
    ]
}

/// Any YAML value, decoded into a ``Value`` for the program's `config`.
struct AnyValue: Decodable {
    var value: Value

    init(from decoder: any Decoder) throws {
        if let map = try? decoder.container(keyedBy: AnyKey.self) {
            var fields = Fields()
            for key in map.allKeys.sorted(by: { $0.stringValue < $1.stringValue }) {
                fields[key.stringValue] = try map.decode(AnyValue.self, forKey: key).value
            }
            value = .object(fields)
            return
        }
        if var list = try? decoder.unkeyedContainer() {
            var items: [Value] = []
            while !list.isAtEnd { items.append(try list.decode(AnyValue.self).value) }
            value = .array(items)
            return
        }
        let c = try decoder.singleValueContainer()
        if c.decodeNil() {
            value = .null
        } else if let b = try? c.decode(Bool.self) {
            value = .bool(b)
        } else if let i = try? c.decode(Int64.self) {
            value = .int(i)
        } else if let d = try? c.decode(Double.self) {
            value = .double(d)
        } else {
            value = .string(try c.decode(String.self))
        }
    }
}
