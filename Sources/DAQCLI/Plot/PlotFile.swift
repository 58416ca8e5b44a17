import DAQCore
import Foundation

/// Where `daq inspect --plot` writes: an SVG as drawn, or a PNG rendered from that same SVG.
///
/// The PNG is rendered by librsvg's `rsvg-convert` rather than a rasterizer of our own: text
/// needs a font engine, and librsvg is the renderer GNOME and Wikipedia trust with SVG. It runs
/// only when a PNG is asked for, so the SVG needs nothing installed.
enum PlotFile {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Writes `svg` to `path`, as PNG when `path` ends in `.png` (any case), else as SVG. Either
    /// file appears whole or not at all.
    /// - Throws: ``Failure`` naming the file and, for a PNG, what the renderer said.
    static func write(_ svg: String, to path: String) throws {
        guard path.lowercased().hasSuffix(".png") else {
            do {
                try svg.write(toFile: path, atomically: true, encoding: .utf8)
            } catch {
                throw Failure(description: "cannot write \(path): \(error.localizedDescription)")
            }
            return
        }
        guard let renderer = Self.renderer() else {
            throw Failure(
                description:
                    "cannot write \(path): a PNG is rendered by rsvg-convert, which is not on PATH "
                    + "(Debian: apt install librsvg2-bin); --plot FILE.svg needs nothing installed")
        }
        let target = URL(fileURLWithPath: path)
        let partial = target.deletingLastPathComponent().appendingPathComponent(
            ".\(target.lastPathComponent).\(getpid()).partial")
        let source = partial.appendingPathExtension("svg")
        defer {
            try? FileManager.default.removeItem(at: source)
            try? FileManager.default.removeItem(at: partial)
        }
        do {
            try svg.write(to: source, atomically: false, encoding: .utf8)
        } catch {
            throw Failure(description: "cannot write \(path): \(error.localizedDescription)")
        }
        let process = Process()
        process.executableURL = renderer
        process.arguments = ["--format", "png", "--output", partial.path, source.path]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            throw Failure(
                description: "cannot write \(path): cannot start \(renderer.path): \(error.localizedDescription)")
        }
        let said = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            let text = String(decoding: said.prefix(2_000), as: UTF8.self).trimmingCharacters(
                in: .whitespacesAndNewlines)
            throw Failure(
                description:
                    "cannot write \(path): rsvg-convert ended with status \(process.terminationStatus)"
                    + (text.isEmpty ? "" : ": \(PrintableText.line(text))"))
        }
        guard rename(partial.path, target.path) == 0 else {
            throw Failure(description: "cannot write \(path): \(String(cString: strerror(errno)))")
        }
    }

    /// `rsvg-convert` on PATH.
    private static func renderer() -> URL? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for dir in path.split(separator: ":") where !dir.isEmpty {
            let candidate = URL(fileURLWithPath: String(dir)).appendingPathComponent("rsvg-convert")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        return nil
    }
}
