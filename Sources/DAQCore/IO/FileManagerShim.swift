import Foundation

/// Directory creation, renames and removals with messages that name the path.
enum FileManagerShim {
    /// Renames `from` over `to` in one step (`rename(2)`).
    static func rename(_ from: String, to: String) throws {
        guard Foundation.rename(from, to) == 0 else {
            throw OutputFileError(
                path: to, reason: "cannot replace it with \(from): \(String(cString: strerror(errno)))")
        }
    }

    /// Removes a file; returns whether it is gone.
    static func remove(_ path: String) -> Bool {
        unlink(path) == 0 || errno == ENOENT
    }

    /// The size of a file in bytes, `nil` when it does not exist.
    static func size(of path: String) -> Int? {
        var st = stat()
        return stat(path, &st) == 0 ? Int(st.st_size) : nil
    }

    static func createDirectory(_ path: String) throws {
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            throw OutputFileError(path: path, reason: "cannot create directory: \(error.localizedDescription)")
        }
    }
}
