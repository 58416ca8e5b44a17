import DAQCore
import Foundation
import Testing

/// Files that cannot be a pipeline: each gives exactly one clear diagnostic naming the file.
@Suite("Config: reading files", .timeLimit(.minutes(20)))
struct ConfigFileTests {
    /// A fresh, uniquely named path in the temporary directory, removed after `body`.
    static func withTemporaryPath<T>(_ suffix: String = ".yaml", _ body: (String) throws -> T) rethrows -> T {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("daq-vtest-\(UUID().uuidString)\(suffix)").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        return try body(path)
    }

    /// The only diagnostic from loading `path`.
    static func single(_ path: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> Diagnostic {
        var diagnostics: [Diagnostic] = []
        do {
            let spec = try V.loader().load(file: path)
            Issue.record("loaded '\(spec.name)'", sourceLocation: sourceLocation)
        } catch let error as ConfigError {
            diagnostics = error.diagnostics
        }
        try #require(diagnostics.count == 1, "\(diagnostics.map(\.description))", sourceLocation: sourceLocation)
        #expect(diagnostics[0].file == path, sourceLocation: sourceLocation)
        #expect(diagnostics[0].severity == .error, sourceLocation: sourceLocation)
        return diagnostics[0]
    }

    static func write(_ data: Data, to path: String) throws {
        try data.write(to: URL(fileURLWithPath: path))
    }

    @Test(arguments: ["", "\n\n", "# only a comment\n"])
    func emptyFile(_ text: String) throws {
        let d = try Self.withTemporaryPath { path in
            try Self.write(Data(text.utf8), to: path)
            return try Self.single(path)
        }
        #expect(d.line == nil && d.column == nil)
        #expect(d.message == "empty file; expected a mapping with 'sources' and 'sinks'")
    }

    @Test(arguments: [
        ("- a\n- b\n", 1, 1, "the top level is a list"),
        ("\n\njust text\n", 3, 1, "the top level is a scalar"),
        ("---\n", 2, 1, "the top level is null"),
    ])
    func topLevelNotAMapping(_ text: String, _ line: Int, _ column: Int, _ fragment: String) throws {
        let d = try Self.withTemporaryPath { path in
            try Self.write(Data(text.utf8), to: path)
            return try Self.single(path)
        }
        #expect(d.line == line && d.column == column, "\(d)")
        #expect(d.message == "\(fragment); expected a mapping with 'sources' and 'sinks'")
    }

    @Test func fileOverFourMegabytes() throws {
        let d = try Self.withTemporaryPath { path in
            try Self.write(Data(repeating: UInt8(ascii: "#"), count: 5 << 20), to: path)
            return try Self.single(path)
        }
        #expect(d.line == nil)
        #expect(d.message == "file is 5.0 MB; a pipeline YAML file is at most 4.0 MB (is this a recording?)")
    }

    @Test func fileOfExactlyFourMegabytesIsRead() throws {
        // At the limit the file is parsed: a comment padded to 4 MB is an empty pipeline, not too big.
        let d = try Self.withTemporaryPath { path in
            var data = Data("#".utf8)
            data.append(Data(repeating: UInt8(ascii: "x"), count: (4 << 20) - 1))
            try Self.write(data, to: path)
            return try Self.single(path)
        }
        #expect(d.message.hasPrefix("empty file"), "\(d)")
    }

    @Test(
        arguments: [
            (Array("sources:".utf8) + [0, 1, 2], "binary file (NUL byte at offset 8); expected YAML text"),
            (
                [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00],
                "binary file (NUL byte at offset 8); expected YAML text"
            ),
            ([0x6E, 0x61, 0x6D, 0x65, 0x3A, 0x20, 0xFF, 0xFE], "not UTF-8 text; expected a YAML file"),
        ] as [([UInt8], String)])
    func binaryOrNonUTF8File(_ bytes: [UInt8], _ message: String) throws {
        let d = try Self.withTemporaryPath { path in
            try Self.write(Data(bytes), to: path)
            return try Self.single(path)
        }
        #expect(d.line == nil && d.column == nil)
        #expect(d.message == message)
    }

    @Test func missingFile() throws {
        let d = try Self.withTemporaryPath { path in try Self.single(path) }
        #expect(d.message == "no such file")
        #expect(d.description.hasSuffix(".yaml: error: no such file"))
    }

    @Test func directory() throws {
        let d = try Self.withTemporaryPath("") { path in
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
            return try Self.single(path)
        }
        #expect(d.message == "is a directory; expected a pipeline YAML file")
    }

    @Test func validFileLoadsWithItsPathAndDefaultName() throws {
        let spec = try Self.withTemporaryPath { path in
            try Self.write(Data(V.minimal.utf8), to: path)
            return (try V.loader().load(file: path), path)
        }
        #expect(spec.0.file == spec.1)
        #expect(spec.0.name == ((spec.1 as NSString).lastPathComponent as NSString).deletingPathExtension)
    }
}
