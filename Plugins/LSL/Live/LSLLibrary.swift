import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// liblsl's C API (`include/lsl_c.h`), found and loaded with `dlopen` the first time a pipeline
/// needs it, so `daq` builds, and runs every other pipeline, on a machine without liblsl.
///
/// Where it looks, in order: the file `LSL_LIB` names; the copy pylsl's wheel carries
/// (`site-packages/pylsl/lib/liblsl.so` of any Python found under the usual prefixes, pyenv's
/// included); the system's `liblsl.so`, `liblsl.so.2`. A library missing any function DAQKit
/// calls is refused, naming the function.
///
/// # Thread safety
/// Immutable once loaded: the function pointers never change and liblsl's functions may be
/// called from any thread.
final class LSLLibrary: @unchecked Sendable {
    /// The file the library was loaded from.
    let path: String
    /// liblsl's own version, `major * 100 + minor` (118 for 1.18).
    let version: Int32
    let api: LSLFunctions

    private init(path: String, api: LSLFunctions) {
        self.path = path
        self.api = api
        self.version = api.libraryVersion()
    }

    private static let loaded = Mutex<Result<LSLLibrary, LSLLibraryError>?>(nil)

    /// The library, loaded on first use; a failure is remembered, so a missing library costs
    /// one search per process.
    /// - Throws: ``LSLLibraryError`` saying where it looked and how to get it.
    static func shared() throws(LSLLibraryError) -> LSLLibrary {
        let result = loaded.withLock { cached in
            if let cached { return cached }
            let result = load(environment: ProcessInfo.processInfo.environment)
            cached = result
            return result
        }
        return try result.get()
    }

    /// Loads the first library found from the candidates for `environment`.
    static func load(environment: [String: String]) -> Result<LSLLibrary, LSLLibraryError> {
        var tried: [String] = []
        for candidate in candidates(environment: environment) {
            guard let handle = dlopen(candidate, RTLD_NOW | RTLD_LOCAL) else {
                tried.append("\(candidate): \(dlerror().map { String(cString: $0) } ?? "not loadable")")
                // LSL_LIB names one file: not finding it there is the answer, not a cue to look elsewhere.
                if environment["LSL_LIB"].map({ !$0.isEmpty }) == true { break }
                continue
            }
            do {
                return .success(LSLLibrary(path: candidate, api: try LSLFunctions(handle: handle)))
            } catch {
                dlclose(handle)
                tried.append("\(candidate): \(error)")
                if environment["LSL_LIB"].map({ !$0.isEmpty }) == true { break }
            }
        }
        return .failure(LSLLibraryError(tried: tried))
    }

    /// The files to try, in order.
    static func candidates(environment: [String: String]) -> [String] {
        if let named = environment["LSL_LIB"], !named.isEmpty { return [named] }
        return pylslCopies(environment: environment) + ["liblsl.so", "liblsl.so.2"]
    }

    /// pylsl's copies, found by looking, not by running Python: `site-packages/pylsl/lib` under
    /// the virtual environment, the user's site, pyenv's versions and the system prefixes.
    static func pylslCopies(environment: [String: String]) -> [String] {
        let fm = FileManager.default
        var prefixes: [String] = []
        if let venv = environment["VIRTUAL_ENV"] { prefixes.append(venv) }
        let home = environment["HOME"] ?? NSHomeDirectory()
        prefixes.append(home + "/.local")
        let pyenv = environment["PYENV_ROOT"] ?? home + "/.pyenv"
        let versions = (try? fm.contentsOfDirectory(atPath: pyenv + "/versions")) ?? []
        prefixes += versions.sorted().reversed().map { pyenv + "/versions/" + $0 }
        prefixes += ["/usr/local", "/usr", "/opt/conda"]
        var found: [String] = []
        for prefix in prefixes {
            for lib in ["lib", "lib64"] {
                let base = prefix + "/" + lib
                let pythons = ((try? fm.contentsOfDirectory(atPath: base)) ?? []).filter { $0.hasPrefix("python3") }
                for python in pythons.sorted().reversed() {
                    for packages in ["site-packages", "dist-packages"] {
                        let file = "\(base)/\(python)/\(packages)/pylsl/lib/liblsl.so"
                        if fm.fileExists(atPath: file) { found.append(file) }
                    }
                }
            }
        }
        return found
    }
}

/// liblsl could not be loaded: where DAQKit looked, and the three ways to give it one.
struct LSLLibraryError: Error, CustomStringConvertible, Sendable {
    /// Each file tried, with why it failed.
    var tried: [String]

    var description: String {
        let looked = tried.isEmpty ? "" : " (tried: " + tried.joined(separator: "; ") + ")"
        return "liblsl could not be loaded\(looked). Give it one of three ways: "
            + "LSL_LIB=/path/to/liblsl.so; or `pip install pylsl` (its wheel carries liblsl in "
            + "site-packages/pylsl/lib/liblsl.so, found without running Python; "
            + "`python3 -c \"import pylsl,os; print(os.path.dirname(pylsl.__file__))\"` prints where, add /lib/liblsl.so); "
            + "or install the system's liblsl (liblsl.so, liblsl.so.2) from https://github.com/sccn/liblsl/releases"
    }
}
