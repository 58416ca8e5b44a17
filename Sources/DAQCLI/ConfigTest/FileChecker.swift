import DAQCore
import Foundation

/// Checks what a sink wrote to its file: records, lines, the CSV header, text it contains.
struct FileChecker {
    let files: [String]
    let sink: String

    func check(_ e: FileExpectation, key: String, place: Place) -> Failure? {
        func fail(_ k: String, _ expected: String, _ actual: String) -> Failure {
            Failure(place: e.places[k] ?? place, key: k == "" ? key : "\(key).\(k)", expected: expected, actual: actual)
        }
        let names = files.map { ($0 as NSString).lastPathComponent }
        let chosen: String
        if let name = e.name {
            guard let i = names.firstIndex(of: name) else {
                return fail(
                    "name", "a file named \(name)",
                    names.isEmpty ? "'\(sink)' wrote no file" : "it wrote \(SampleText.list(names))")
            }
            chosen = files[i]
        } else {
            guard files.count == 1 else {
                return fail(
                    "", "one file",
                    files.isEmpty
                        ? "'\(sink)' wrote no file"
                        : "\(files.count) files \(SampleText.list(names)); say which with name:")
            }
            chosen = files[0]
        }
        guard let text = try? String(contentsOfFile: chosen, encoding: .utf8) else {
            return fail("", "a readable text file", "cannot read \(chosen)")
        }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).dropLast(text.hasSuffix("\n") ? 1 : 0)
        if let spec = e.lines, !spec.accepts(lines.count) { return fail("lines", "\(spec) lines", "\(lines.count)") }
        if let spec = e.items {
            switch Self.records(text, lines: lines.count, file: chosen) {
            case .success(let n): if !spec.accepts(n) { return fail("items", "\(spec) items", "\(n)") }
            case .failure(let problem): return fail("items", "\(spec) items", problem.message)
            }
        }
        if let header = e.header, lines.first.map(String.init) != header {
            return fail("header", header, lines.first.map(String.init) ?? "an empty file")
        }
        for (needle, at) in e.contains where !text.contains(needle) {
            return Failure(
                place: at, key: "\(key).contains", expected: "the file contains '\(needle)'",
                actual: "it does not (\(text.utf8.count) bytes, \(lines.count) lines)")
        }
        return nil
    }

    struct Problem: Error { var message: String }

    /// Records in the file: JSON items (`{"items": […]}` or a root array), CSV rows after the
    /// header, else non-empty lines (JSON Lines).
    static func records(_ text: String, lines: Int, file: String) -> Result<Int, Problem> {
        if file.hasSuffix(".json") {
            guard let value = try? JSONParser.parse(Array(text.utf8)) else {
                return .failure(Problem(message: "the file is not valid JSON (run daq repair on a killed run's file)"))
            }
            switch value {
            case .array(let a): return .success(a.count)
            case .object(let o):
                if case .array(let items)? = o["items"] { return .success(items.count) }
                return .failure(Problem(message: "a JSON object without 'items'"))
            default: return .failure(Problem(message: "JSON that is neither a list nor an object with 'items'"))
            }
        }
        let nonEmpty = text.split(separator: "\n").filter { !$0.allSatisfy(\.isWhitespace) }.count
        return .success(file.hasSuffix(".csv") ? Swift.max(0, nonEmpty - 1) : nonEmpty)
    }
}
