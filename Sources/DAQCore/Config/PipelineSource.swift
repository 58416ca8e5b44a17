import Foundation

/// Reads a pipeline file, refusing what cannot be YAML with one clear line.
enum PipelineSource {
    /// The largest pipeline file accepted; a bigger one is a mistake (a recording named instead).
    static let maxBytes = 4 << 20

    /// The file's text.
    /// - Throws: ``ConfigError`` with one diagnostic for a missing, unreadable, oversized,
    ///   binary or non-UTF-8 file, or a directory.
    static func read(_ path: String, limit: Int = maxBytes, kind: String = "a pipeline YAML file") throws(ConfigError)
        -> String
    {
        func fail(_ message: String) -> ConfigError { ConfigError([Diagnostic(file: path, message: message)]) }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw fail("no such file")
        }
        if isDirectory.boolValue { throw fail("is a directory; expected \(kind)") }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw fail("cannot open for reading (permission denied?)")
        }
        defer { try? handle.close() }
        let data: Data
        do {
            data = try handle.read(upToCount: limit + 1) ?? Data()
        } catch {
            throw fail("cannot read: \(error.localizedDescription)")
        }
        if data.count > limit {
            let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? data.count
            let hint = limit == maxBytes ? " (is this a recording?)" : ""
            throw fail("file is \(formatMB(size)); \(kind) is at most \(formatMB(limit))\(hint)")
        }
        return try decode(data, path: path)
    }

    /// Checks bytes are UTF-8 text and turns them into a string.
    static func decode(_ data: Data, path: String) throws(ConfigError) -> String {
        if let nul = data.firstIndex(of: 0) {
            throw ConfigError([
                Diagnostic(
                    file: path,
                    message: "binary file (NUL byte at offset \(nul - data.startIndex)); expected YAML text")
            ])
        }
        guard let text = String(validating: data, as: UTF8.self) else {
            throw ConfigError([Diagnostic(file: path, message: "not UTF-8 text; expected a YAML file")])
        }
        return text
    }

    private static func formatMB(_ bytes: Int) -> String {
        let tenths = (bytes * 10 + (1 << 19)) >> 20
        return "\(tenths / 10).\(tenths % 10) MB"
    }
}
