import Synchronization
import Yams

/// The environment variables that hold secrets: the value of every `*_env` key of a loaded
/// pipeline's components (`password_env: MQTT_PASSWORD`, `token_env: RESOLVER_TOKEN`).
///
/// A child process (`exec`) is not given them unless its `env:` names them: a program written
/// to scale a sensor has no business with the broker's password, and whatever it logs or
/// crashes with could carry it.
///
/// # Thread safety
/// Process-wide, behind one `Mutex`: pipelines are loaded (and reloaded) on any thread.
public enum SecretVariables {
    private static let names = Mutex<Set<String>>([])

    /// Every name the pipelines loaded so far mark as a secret.
    public static var all: Set<String> { names.withLock { $0 } }

    /// Marks `name` as a secret, as a `*_env` key naming it does.
    public static func insert(_ name: String) {
        guard !name.isEmpty else { return }
        _ = names.withLock { $0.insert(name) }
    }

    /// Marks the value of every `*_env` key, at any depth, of the components of `root`.
    static func collect(from root: Node) {
        for section in ["sources", "transforms", "sinks"] {
            guard case .mapping(let components)? = root[section] else { continue }
            for (_, component) in components { collect(in: component) }
        }
    }

    private static func collect(in node: Node) {
        switch node {
        case .mapping(let pairs):
            for (key, value) in pairs {
                if let k = key.string, k.hasSuffix("_env"), let name = value.string { insert(name) }
                collect(in: value)
            }
        case .sequence(let items):
            for item in items { collect(in: item) }
        default:
            break
        }
    }
}
