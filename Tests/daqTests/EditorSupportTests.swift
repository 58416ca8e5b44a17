import Foundation
import Testing

/// `daq schema`, the generated plugin reference and shell completion, checked through the
/// real binary and, for the schema, the reference Python validator.
@Suite("editor support", .timeLimit(.minutes(20)))
struct EditorSupportTests {
    static let validator = DAQBinary.repository.appendingPathComponent("Tests/Fixtures/schema/validate.py").path

    struct Result: Decodable {
        struct Problem: Decodable {
            var path: String
            var message: String
        }
        var file: String
        var errors: [Problem]
    }

    /// Writes the schema of this build to a temporary file and validates `files` against it.
    static func validate(_ files: [String]) throws -> [Result] {
        let schema = FileManager.default.temporaryDirectory.appendingPathComponent(
            "daq-schema-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: schema) }
        let made = try DAQBinary.run(["schema", "--output", schema.path])
        #expect(made.status == 0, "\(made.err)")
        let r = try DAQBinary.tool(["python3", validator, schema.path] + files)
        try #require(r.status == 0, "validate.py failed: \(r.err)")
        let data = r.out
        return try String(decoding: data, as: UTF8.self).split(separator: "\n").map {
            try JSONDecoder().decode(Result.self, from: Data($0.utf8))
        }
    }

    @Test func theSchemaAcceptsEveryShippedPipeline() throws {
        let dir = DAQBinary.repository.appendingPathComponent("pipelines")
        let files = try FileManager.default.contentsOfDirectory(atPath: dir.path)
            .filter { $0.hasSuffix(".yaml") && !$0.hasSuffix(".daqtest.yaml") }.sorted().map { "pipelines/\($0)" }
        #expect(files.count >= 10)
        let results = try Self.validate(files)
        #expect(results.count == files.count)
        for r in results {
            #expect(r.errors.isEmpty, "\(r.file): \(r.errors.map { "\($0.path): \($0.message)" })")
        }
    }

    @Test func theSchemaRejectsABrokenPipelineAtEachMistake() throws {
        let results = try Self.validate(["Tests/Fixtures/config/many-errors.yaml"])
        let errors = try #require(results.first).errors
        let text = errors.map { "\($0.path): \($0.message)" }
        // The same mistakes `daq validate` reports for this file: a misspelt top-level key,
        // unknown plugin types, a negative speed and a transform without inputs.
        #expect(text.contains { $0.contains("'clok' was unexpected") }, "\(text)")
        #expect(errors.contains { $0.path == "sinks/out/type" && $0.message.contains("'printer'") }, "\(text)")
        #expect(errors.contains { $0.path == "sources/src/type" && $0.message.contains("'tickr'") }, "\(text)")
        #expect(errors.contains { $0.path == "speed" }, "\(text)")
        #expect(errors.contains { $0.path == "transforms/win" && $0.message.contains("'inputs'") }, "\(text)")
    }

    @Test func theSchemaChecksEachPluginsOwnKeysAndValues() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("daq-schema-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let good = """
            name: ok
            clock: virtual
            sources:
              wave:
                type: generator
                signal: square
                rate: ${RATE:-20}
                count: 10
            transforms:
              win: {type: window, inputs: [wave], size: 500ms, field: value, buffer: {size: 10, when_full: drop_oldest}}
            sinks:
              out: {type: null, inputs: [win]}
            """
        let bad = """
            sources:
              wave: {type: generator, signal: triangle, rate: fast, cuont: 10}
            transforms:
              win: {type: window, inputs: [wave], size: soon, buffer: {size: 10, when_ful: block}}
            sinks:
              out: {type: console, inputs: [win]}
            """
        try good.write(to: dir.appendingPathComponent("good.yaml"), atomically: true, encoding: .utf8)
        try bad.write(to: dir.appendingPathComponent("bad.yaml"), atomically: true, encoding: .utf8)
        let results = try Self.validate([
            dir.appendingPathComponent("good.yaml").path, dir.appendingPathComponent("bad.yaml").path,
        ])
        try #require(results.count == 2)
        #expect(results[0].errors.isEmpty, "\(results[0].errors.map(\.message))")
        let paths = Set(results[1].errors.map(\.path))
        for path in [
            "sources/wave", "sources/wave/signal", "sources/wave/rate", "transforms/win/size", "transforms/win/buffer",
        ] {
            #expect(
                paths.contains(path), "no error at \(path): \(results[1].errors.map { "\($0.path): \($0.message)" })")
        }
        #expect(results[1].errors.contains { $0.message.contains("'cuont' was unexpected") })
    }

    @Test func theCommittedSchemaAndReferenceAreWhatThisBuildGenerates() throws {
        for (arguments, file) in [
            (["schema"], "docs/pipeline.schema.json"), (["plugins", "reference"], "docs/plugins.md"),
        ] {
            let generated = try DAQBinary.run(arguments)
            #expect(generated.status == 0, "\(generated.err)")
            let committed = try String(contentsOf: DAQBinary.repository.appendingPathComponent(file), encoding: .utf8)
            #expect(
                generated.out == committed,
                "\(file) is stale: run `swift run daq \(arguments.joined(separator: " ")) --output \(file)`")
        }
    }

    @Test func theReferenceDocumentsEveryPluginAndKeyThatDescribePrints() throws {
        let reference = try DAQBinary.run(["plugins", "reference"]).out
        let window = try DAQBinary.run(["plugins", "describe", "window"])
        #expect(window.status == 0)
        let lines = window.out.split(separator: "\n").dropFirst(3)
        let emits = try #require(lines.firstIndex(of: "  emits:"), "\(window.out)")
        // A key's line is indented 4; its type's continuation 6 and its meaning 8.
        for line in lines[..<emits] where line.hasPrefix("    ") && !line.hasPrefix("     ") {
            let key = line.split(separator: " ").first.map(String.init) ?? ""
            if ["inputs", "buffer", "on_error"].contains(key) { continue }  // common keys, documented once at the top
            #expect(reference.contains("| `\(key)` |"), "reference lacks window.\(key)")
        }
        // What it emits, field by field: `window_start  double  s  …`.
        let types: Set<Substring> = ["double", "int", "bool", "string", "bytes", "array", "object", "any"]
        for line in lines[emits...].dropFirst() {
            let words = line.split(separator: " ")
            guard words.count > 2, types.contains(words[1]) else { continue }
            let field = String(words[0])
            #expect(reference.contains("| `\(field)` |"), "reference lacks what window emits: \(field)")
        }
        let list = try DAQBinary.run(["plugins"]).out
        for line in list.split(separator: "\n") where line.hasPrefix("  ") {
            let type = String(line.split(separator: " ").first ?? "")
            #expect(reference.contains("### `\(type)`"), "reference lacks \(type)")
        }
    }

    @Test func shellCompletionOffersPipelineFilesAndPluginTypes() throws {
        let bash = try DAQBinary.run(["--generate-completion-script", "bash"])
        #expect(bash.status == 0)
        #expect(bash.out.contains("yaml"), "pipeline arguments complete *.yaml files")
        // The script asks the binary for plugin types; this is that call.
        let types = try DAQBinary.run([
            "---completion", "plugins", "describe", "--", "positional@0", "3", "8", "daq", "plugins", "describe",
            "motion.l",
        ])
        #expect(types.out.split(separator: "\n") == ["motion.lowpass"])
        for shell in ["zsh", "fish"] {
            #expect(try DAQBinary.run(["--generate-completion-script", shell]).status == 0)
        }
    }
}
