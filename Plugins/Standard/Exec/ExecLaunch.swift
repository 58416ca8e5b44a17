import DAQCore
import Foundation

/// What an `exec` program is started as: the file `command[0]` names, and the environment it
/// gets.
///
/// `command[0]` is looked up as `execvp(3)` looks it up (a name with a `/` as it is, relative to
/// `cwd`; otherwise the first executable of that name on the program's `PATH`), and executed
/// directly: never through `/usr/bin/env`, which took a first word of `-i` or `NAME=value` as
/// its own option or assignment.
struct ExecLaunch: Equatable {
    /// The file executed.
    var executable: String
    /// The arguments after `command[0]`.
    var arguments: [String]
    /// The program's whole environment.
    var environment: [String: String]

    /// The launch `settings` ask for, from `inherited` (daq's environment) less `secrets`
    /// (``SecretVariables``) unless `env:` names them.
    /// - Throws: ``ExecError`` when `command[0]` is not found or not executable.
    init(settings: ExecSettings, inherited: [String: String], secrets: Set<String>) throws {
        var environment = settings.clearEnvironment ? [:] : inherited.filter { !secrets.contains($0.key) }
        environment.merge(settings.env) { $1 }
        self.environment = environment
        arguments = Array(settings.command.dropFirst())
        let name = settings.command[0]
        guard let found = Self.find(name, path: environment["PATH"] ?? inherited["PATH"], cwd: settings.cwd) else {
            throw ExecError(
                "program '\(PrintableText.escaped(name))' is not an executable file"
                    + (name.contains("/") ? "" : " on PATH"))
        }
        executable = found
    }

    /// The file `execvp` would execute for `name`.
    static func find(_ name: String, path: String?, cwd: String) -> String? {
        let fm = FileManager.default
        if name.contains("/") {
            let full = name.hasPrefix("/") || cwd.isEmpty ? name : (cwd as NSString).appendingPathComponent(name)
            return fm.isExecutableFile(atPath: full) ? full : nil
        }
        // execvp's default when PATH is unset.
        for dir in (path ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":", omittingEmptySubsequences: false) {
            let base = dir.isEmpty ? "." : String(dir)
            let candidate = (base as NSString).appendingPathComponent(name)
            var isDirectory: ObjCBool = false
            if fm.fileExists(atPath: candidate, isDirectory: &isDirectory), !isDirectory.boolValue,
                fm.isExecutableFile(atPath: candidate)
            {
                return candidate
            }
        }
        return nil
    }
}
