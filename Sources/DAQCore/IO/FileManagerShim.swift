import Foundation

/// Directory creation with a message that names the path.
enum FileManagerShim {
    static func createDirectory(_ path: String) throws {
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            throw OutputFileError(path: path, reason: "cannot create directory: \(error.localizedDescription)")
        }
    }
}
