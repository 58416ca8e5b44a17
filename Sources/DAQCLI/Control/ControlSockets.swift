import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Where running pipelines put their control sockets, and how `daq tap`/`top`/`control`
/// find one from what the user typed.
///
/// A run's socket is `<runtime dir>/<pipeline>-<pid>.sock`, the runtime dir being
/// `$XDG_RUNTIME_DIR/daq` or `/tmp/daq-<uid>`, created owner-only; every run directory the run
/// writes gets a `control.sock` link to it, so the socket is found from the run's files too.
enum ControlSockets {
    /// The directory, created with mode 0700 if missing.
    /// - Throws: when it cannot be made, or exists but belongs to someone else or is open to others.
    static func directory(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> String {
        let dir: String
        if let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty,
            FileManager.default.fileExists(atPath: runtime)
        {
            dir = runtime + "/daq"
        } else {
            dir = "/tmp/daq-\(getuid())"
        }
        if mkdir(dir, 0o700) != 0 && errno != EEXIST {
            throw ControlError("cannot create \(dir): \(String(cString: strerror(errno)))")
        }
        var info = stat()
        guard lstat(dir, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else {
            throw ControlError("\(dir) is not a directory")
        }
        // Someone else's directory in /tmp could hand us their socket: refuse it.
        guard info.st_uid == getuid(), info.st_mode & 0o077 == 0 else {
            throw ControlError("\(dir) must belong to you and be private (mode 0700)")
        }
        return dir
    }

    /// The socket path of this process's run of `pipeline`.
    static func path(pipeline: String) throws -> String {
        let safe = String(pipeline.map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" ? $0 : "_" }.prefix(40))
        return try directory() + "/\(safe)-\(getpid()).sock"
    }

    /// A live run: its socket, pipeline name and process id.
    struct Entry: Equatable {
        var path: String
        var pipeline: String
        var pid: Int32
    }

    /// The runs whose process is alive; sockets left by dead ones are removed.
    static func live() -> [Entry] {
        guard let dir = try? directory(), let names = try? FileManager.default.contentsOfDirectory(atPath: dir) else {
            return []
        }
        var entries: [Entry] = []
        for name in names.sorted() where name.hasSuffix(".sock") {
            let stem = name.dropLast(5)
            guard let dash = stem.lastIndex(of: "-"), let pid = Int32(stem[stem.index(after: dash)...]) else {
                continue
            }
            let path = dir + "/" + name
            if kill(pid, 0) != 0 && errno == ESRCH {
                unlink(path)
                continue
            }
            entries.append(Entry(path: path, pipeline: String(stem[..<dash]), pid: pid))
        }
        return entries
    }

    /// Splits `daq tap`'s `[RUN] [GLOB]`: two arguments are both; a lone one is the run when
    /// it names one (a path, or a live run's name or pid), else the pattern of the only run.
    static func runAndPattern(_ arguments: [String]) -> (run: String?, pattern: String) {
        switch arguments.count {
        case 0: return (nil, "*")
        case 1:
            let lone = arguments[0]
            let namesRun =
                FileManager.default.fileExists(atPath: lone)
                || live().contains { $0.pipeline == lone || "\($0.pid)" == lone }
            return namesRun ? (lone, "*") : (nil, lone)
        default: return (arguments[0], arguments[1])
        }
    }

    /// Resolves RUN: a socket path, a run directory holding `control.sock`, a process id, or
    /// a pipeline name; `nil` means "the only run there is".
    static func resolve(_ run: String?) throws -> String {
        if let run {
            var isDir: ObjCBool = false
            if FileManager.default.fileExists(atPath: run, isDirectory: &isDir) {
                return isDir.boolValue ? (run as NSString).appendingPathComponent("control.sock") : run
            }
        }
        let all = live()
        let matches = run.map { r in all.filter { $0.pipeline == r || "\($0.pid)" == r } } ?? all
        if matches.count == 1 { return matches[0].path }
        let listing = all.map { "  \($0.pipeline) (pid \($0.pid))" }.joined(separator: "\n")
        if matches.isEmpty {
            let what = run.map { "no running pipeline '\($0)' (by name or process id)" } ?? "no pipeline is running"
            throw ControlError(all.isEmpty ? "\(what)" : "\(what); running:\n\(listing)")
        }
        // Only the runs that match: a listing of every run would offer unrelated ones to pick.
        let matching = matches.map { "  \($0.pipeline) (pid \($0.pid))" }.joined(separator: "\n")
        throw ControlError("several runs match; name one by pid:\n\(matching)")
    }
}

/// A control-socket problem, said plainly.
struct ControlError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
