import Foundation

/// One file of a scaffold: where it goes inside the output folder and what it holds.
struct ScaffoldFile: Sendable, Equatable {
    /// The path relative to the output folder, `/`-separated.
    var path: String
    /// The text.
    var contents: String
    /// Whether to mark it executable (scripts).
    var executable = false
}

/// Writes a scaffold's files, never over someone's work.
enum ScaffoldWriter {
    /// Writes `files` under `directory`, creating it and the folders inside.
    /// - Throws: ``ScaffoldError`` when `directory` is a file or a folder that is not empty,
    ///   or a file cannot be written.
    static func write(_ files: [ScaffoldFile], to directory: String) throws(ScaffoldError) {
        let fm = FileManager.default
        var isDirectory: ObjCBool = false
        if fm.fileExists(atPath: directory, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else {
                throw ScaffoldError("'\(directory)' is a file; choose another --output")
            }
            let entries = (try? fm.contentsOfDirectory(atPath: directory)) ?? []
            guard entries.isEmpty else {
                throw ScaffoldError(
                    "'\(directory)' is not empty (\(entries.count) entries); nothing was written. Choose another --output or remove it"
                )
            }
        }
        let root = URL(fileURLWithPath: directory, isDirectory: true)
        for file in files {
            let url = root.appendingPathComponent(file.path)
            do {
                try fm.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data(file.contents.utf8).write(to: url)
                if file.executable { try fm.setAttributes([.posixPermissions: 0o755], ofItemAtPath: url.path) }
            } catch {
                throw ScaffoldError("cannot write \(url.path): \(error.localizedDescription)")
            }
        }
    }
}
