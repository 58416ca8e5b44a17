import DAQTesting
import Foundation
import Testing

/// docs/guide/embedding.md shows Examples/Embedding/main.swift, which CI builds (the
/// `daq-embed-example` target) and runs here: the guide's program works, and the page cannot
/// drift from it.
@Suite("embedding guide", .timeLimit(.minutes(20)))
struct EmbeddingGuideTests {
    static var example: URL { DAQBinary.url.deletingLastPathComponent().appendingPathComponent("daq-embed-example") }

    static func text(_ path: String) throws -> String {
        try String(contentsOf: DAQBinary.repository.appendingPathComponent(path), encoding: .utf8)
    }

    @Test func theProgramRunsItsPipelineAndPrintsWhatItSaw() throws {
        try #require(
            FileManager.default.isExecutableFile(atPath: Self.example.path),
            "no \(Self.example.path): build with `swift build --build-tests` (the daq-embed-example target)")
        let run = try Process.runToEnd(Self.example.path, timeout: 120)
        let printed = run.output
        #expect(run.status == 0, "stderr: \(run.errors)")
        let lines = printed.split(separator: "\n").map(String.init)
        #expect(lines.count == 3, "\(printed)")
        #expect(lines.first == "pipeline: starting > running > stopping > finished")
        // A slow consumer could lose batches; what it received and what it lost add up.
        let counts = lines.dropFirst().first?.split(separator: " ").compactMap { Int($0) } ?? []
        #expect(counts.count == 2 && counts.reduce(0, +) == 1000, "\(printed)")
        #expect(lines.last == "ended finished; discard took 1000 samples")
    }

    @Test func theGuideShowsTheProgramAsItIs() throws {
        let guide = try Self.text("docs/guide/embedding.md")
        let program = try Self.text("Examples/Embedding/main.swift")
        let blocks = guide.components(separatedBy: "```swift\n").dropFirst().map {
            $0.components(separatedBy: "```").first ?? ""
        }
        #expect(
            blocks.first == program, "docs/guide/embedding.md's first swift block is not Examples/Embedding/main.swift")
        // It stays about 30 lines, as the guide promises a short program.
        #expect(program.split(separator: "\n", omittingEmptySubsequences: false).count <= 50)
        // And what the page says it prints is what the program printed above.
        #expect(guide.contains("pipeline: starting > running > stopping > finished\n"))
        #expect(guide.contains("ended finished; discard took 1000 samples\n"))
    }

    @Test func readmeAndTheGuideIndexLinkThePage() throws {
        #expect(try Self.text("README.md").contains("(docs/guide/embedding.md)"))
        #expect(try Self.text("docs/guide/README.md").contains("(embedding.md)"))
    }
}
