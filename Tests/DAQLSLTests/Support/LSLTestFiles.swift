import DAQCore
import DAQTesting
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Reading what the LSL tests' participants wrote, and waiting for it.
enum LSLTestFiles {
    /// JSON Lines of a `file` sink, each line an object.
    static func lines(_ path: String) -> [Fields] {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").compactMap { line in
            guard case .object(let f)? = try? JSONParser.parse(Array(line.utf8)) else { return nil }
            return f
        }
    }

    /// A JSON file's value.
    static func json(_ path: String) throws -> Value {
        try JSONParser.parse(Array(try Data(contentsOf: URL(fileURLWithPath: path))))
    }

    /// The manifest of the one run under `directory`.
    static func manifest(under directory: String) throws -> Fields {
        let runs = try FileManager.default.contentsOfDirectory(atPath: directory)
        guard runs.count == 1, case .object(let f) = try json("\(directory)/\(runs[0])/manifest.json") else {
            throw LSLNamespaceError("expected one run under \(directory), found \(runs)")
        }
        return f
    }

    /// Waits until `condition` holds, looking every 10 ms, at most `seconds`.
    /// - Throws: naming `what` when it never held.
    static func wait(_ seconds: Double, for what: String, _ condition: () throws -> Bool) throws {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if try condition() { return }
            usleep(10_000)
        }
        if try condition() { return }
        throw LSLNamespaceError("waited \(seconds) s for \(what)")
    }

    /// Creates an empty file: what the oracles wait for before they go on.
    static func touch(_ path: String) {
        _ = FileManager.default.createFile(atPath: path, contents: Data())
    }
}

extension Value {
    /// The member `key` of an object.
    subscript(member key: String) -> Value? {
        if case .object(let f) = self { return f[key] }
        return nil
    }

    /// The items of an array.
    var items: [Value] {
        if case .array(let a) = self { return a }
        return []
    }
}
