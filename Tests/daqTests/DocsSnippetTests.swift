import Foundation
import Testing

/// What README and `docs/` show is what `daq` accepts: a page cannot drift from the program.
@Suite("README and docs snippets")
struct DocsSnippetTests {
    /// A fenced `yaml` block of a page, with the line its fence opens on.
    struct Snippet {
        let page: String
        let line: Int
        let text: String

        /// A pipeline (it has a section of components or metrics): every one a page shows is whole,
        /// so a reader can run it as it is. Config tests and other YAML files are not pipelines.
        var isPipeline: Bool {
            text.split(separator: "\n").contains { line in
                ["sources:", "transforms:", "sinks:", "metrics:"].contains { line.hasPrefix($0) }
            }
        }
    }

    static func pages() throws -> [String] {
        let root = DAQBinary.repository.path
        let docs = try FileManager.default.subpathsOfDirectory(atPath: root + "/docs")
            .filter { $0.hasSuffix(".md") }.map { "docs/" + $0 }
        return ["README.md"] + docs.sorted()
    }

    static func snippets(of page: String) throws -> [Snippet] {
        let text = try String(contentsOfFile: DAQBinary.repository.path + "/" + page, encoding: .utf8)
        var found: [Snippet] = []
        var open: (line: Int, lines: [Substring])?
        for (i, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if let o = open {
                if line.hasPrefix("```") {
                    found.append(Snippet(page: page, line: o.line, text: o.lines.joined(separator: "\n") + "\n"))
                    open = nil
                } else {
                    open = (o.line, o.lines + [line])
                }
            } else if line == "```yaml" {
                open = (i + 1, [])
            }
        }
        return found
    }

    /// Every pipeline a page shows validates with `daq validate`, at the page's line.
    @Test func everyPipelineShownValidates() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("daq-docs-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        var files: [String: Snippet] = [:]
        for page in try Self.pages() {
            for s in try Self.snippets(of: page) where s.isPipeline {
                let name = page.replacingOccurrences(of: "/", with: "_") + "-\(s.line).yaml"
                try s.text.write(to: dir.appendingPathComponent(name), atomically: true, encoding: .utf8)
                files[name] = s
            }
        }
        // The pages hold many pipelines; finding few means the scan, not the pages, broke.
        #expect(files.count >= 10, "\(files.keys.sorted())")
        for (name, s) in files.sorted(by: { $0.key < $1.key }) {
            // The token a page tells the reader to export first.
            let r = try DAQBinary.run(
                ["validate", dir.appendingPathComponent(name).path], environment: ["INFO_TOKEN": "a-token"])
            #expect(r.status == 0, "\(s.page):\(s.line): the pipeline shown does not validate:\n\(r.err)")
        }
    }

    /// README's first pipeline is the shipped `hello.yaml`, byte for byte.
    @Test func readmeShowsTheShippedHelloPipeline() throws {
        let hello = try String(
            contentsOfFile: DAQBinary.repository.path + "/pipelines/hello.yaml", encoding: .utf8)
        let shown = try Self.snippets(of: "README.md").filter(\.isPipeline)
        #expect(shown.first?.text == hello)
    }

    /// Every relative link of a page leads to a file of the repository.
    @Test func everyLinkLeadsToAFile() throws {
        let root = DAQBinary.repository
        for page in try Self.pages() {
            let text = try String(contentsOf: root.appendingPathComponent(page), encoding: .utf8)
            let base = root.appendingPathComponent(page).deletingLastPathComponent()
            for match in text.matches(of: /\]\(([^)#:\s]+)(#[^)]*)?\)/) {
                let target = base.appendingPathComponent(String(match.output.1)).standardizedFileURL.path
                #expect(FileManager.default.fileExists(atPath: target), "\(page): link to \(match.output.1)")
            }
        }
    }
}
