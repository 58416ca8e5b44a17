import Foundation

/// Paths of the package's shipped files, found from this source file so tests run from anywhere.
enum Fixtures {
    static let package = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let ramp = package.appendingPathComponent("recordings/pt100-ramp.txt").path
    static let pipeline = package.appendingPathComponent("pipelines/pt100-ramp.yaml").path

    /// Writes `text` to a file of its own and returns its path.
    static func file(_ text: String) throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("lab-dmm-\(UUID().uuidString).txt")
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }
}
