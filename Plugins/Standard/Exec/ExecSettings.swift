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
    /// How long a transform's or sink's program may stay silent while owing output, unless `timeout` says.
    static let hangTimeout = Seconds(30)

    @Setting(required: "The program and its arguments, executed directly (found on PATH): [python3, scale.py].")
    var command: [String]
    @Setting(
        "Environment variables set for the program; the only way to pass one that a *_env key of the pipeline names (a secret)."
    )
    var env: [String: String] = [:]
    @Setting("Start the program with env: alone, nothing of daq's environment.") var clearEnvironment = false
    @Setting("Working directory of the program (relative to where daq runs).") var cwd = ""
    @Setting(
        whenUnset: "\(ExecSettings.hangTimeout.configText ?? "") (none for sources)",
        "A program silent this long while owing output counts as hung.")
    var timeout: Seconds?
    @Setting("What a program that exits, hangs or writes a bad line gets.") var onFailure = ExecFailurePolicy.fail
    @Setting("Wait before the first restart; doubled each time up to 30 s.") var restartDelay = Seconds(0.5)
    @Setting("Restarts allowed before the stage fails.") var maxRestarts = 5
    @Setting("At a stop, how long the program and its children get after SIGTERM before SIGKILL.")
    var stopTimeout = Seconds(5)
    @Setting(type: "int (bytes)", "A line from the program longer than this is an error.") var maxLine = 16 << 20
    @Setting("Passed to the program in the hello line, as JSON.") var config = AnyValue(value: .null)

    public init() {}

    public func validate() throws {
        if command.isEmpty || command[0].isEmpty {
            throw $command.issue("name the program and its arguments: [python3, transform.py]")
        }
        if let timeout, !(timeout.value > 0) { throw $timeout.issue("must be more than 0 s") }
        if !(restartDelay.value >= 0) { throw $restartDelay.issue("must be 0 s or more") }
        if maxRestarts < 0 { throw $maxRestarts.issue("must be 0 or more") }
        if !(stopTimeout.value >= 0 && stopTimeout.value <= 3600) {
            throw $stopTimeout.issue("must be from 0 to 3600 s")
        }
        if maxLine < 1024 { throw $maxLine.issue("must be at least 1024 bytes") }
    }
}

/// Any YAML value, decoded into a ``Value`` for the program's `config`.
struct AnyValue: ConfigValue {
    var value: Value

    static var configType: String { "any" }
    var configText: String? { nil }

    init(value: Value) { self.value = value }

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
