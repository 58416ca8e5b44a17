import Foundation

/// The resolver's cache on disk, so a restarted `daq` does not ask again for what it knew.
///
/// JSON Lines: a header naming the format and the settings the answers depend on (service
/// URL, input type, languages), then one `{"id", "stored", "answer"}` per line. A file made
/// with other settings is not used (its answers could be in another language); a damaged
/// line is skipped and counted. Saving writes a temporary file and renames it over the old
/// one, so a crash mid-save leaves the previous cache intact.
struct ResolveCacheFile {
    struct Header: Codable, Equatable {
        var format = "daq-resolve-cache"
        var version = 1
        var settings: String
    }

    private struct Line: Codable {
        var id: String
        var stored: Double
        var answer: ElementAnswer?
    }

    let path: String
    /// What the answers depend on, e.g. `http://127.0.0.1:8080 barcode en,de`.
    let settings: String

    /// What loading found.
    struct Loaded {
        var items: [(id: String, entry: ResolveCache.Entry)] = []
        /// Lines that could not be read.
        var damaged = 0
        /// Why the whole file was not used, when it was not.
        var ignored: String?
    }

    func load() -> Loaded {
        var loaded = Loaded()
        guard let data = FileManager.default.contents(atPath: path) else { return loaded }
        var lines = data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true)[...]
        let decoder = JSONDecoder()
        guard let first = lines.popFirst(), let header = try? decoder.decode(Header.self, from: Data(first)),
            header.format == "daq-resolve-cache", header.version == 1
        else {
            loaded.ignored = "not a daq resolver cache (no header line)"
            return loaded
        }
        guard header.settings == settings else {
            loaded.ignored = "made for '\(header.settings)', not '\(settings)'"
            return loaded
        }
        for line in lines {
            guard let l = try? decoder.decode(Line.self, from: Data(line)) else {
                loaded.damaged += 1
                continue
            }
            loaded.items.append((l.id, ResolveCache.Entry(answer: l.answer, stored: l.stored)))
        }
        return loaded
    }

    func save(_ items: [(id: String, entry: ResolveCache.Entry)]) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var out = try encoder.encode(Header(settings: settings))
        out.append(UInt8(ascii: "\n"))
        for (id, entry) in items {
            out.append(try encoder.encode(Line(id: id, stored: entry.stored, answer: entry.answer)))
            out.append(UInt8(ascii: "\n"))
        }
        let directory = (path as NSString).deletingLastPathComponent
        if !directory.isEmpty {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        }
        let temporary = path + ".tmp-\(getpid())"
        guard FileManager.default.createFile(atPath: temporary, contents: out) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: temporary])
        }
        guard rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw CocoaError(
                .fileWriteUnknown, userInfo: [NSFilePathErrorKey: path, NSLocalizedDescriptionKey: reason])
        }
    }
}
