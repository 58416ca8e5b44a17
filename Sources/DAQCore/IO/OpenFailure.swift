import Foundation

/// Why a file could not be opened for reading, worded for the user who named it.
public enum OpenFailure {
    /// `strerror(errno)` for the `open` that just failed on `path`; when a relative path was not
    /// found, also the folder it was looked up in. A pipeline run from another folder otherwise
    /// says only `recordings/walk.csv: No such file or directory`, and the user cannot tell why.
    public static func reason(_ path: String) -> String {
        let code = errno
        let text = String(cString: strerror(code))
        guard code == ENOENT, !path.hasPrefix("/") else { return text }
        return
            "\(text) (a relative path, looked up in the working directory \(FileManager.default.currentDirectoryPath))"
    }
}
