import DAQCore
import Foundation
import Testing

/// The pipeline `name` names every run directory: it is one path component, never a path.
@Suite("Config: pipeline name", .timeLimit(.minutes(20)))
struct PipelineNameTests {
    static let long = String(repeating: "n", count: 300)

    @Test(arguments: [
        ("name: ..", "'..' begins with '.'"),
        ("name: ../../ESCAPED", "contains '/' at byte 3"),
        ("name: /etc", "contains '/' at byte 1"),
        ("name: a/b", "contains '/' at byte 2"),
        (#"name: "a\\b""#, "contains '\\' at byte 2"),
        (#"name: "a\0b""#, "contains the control character NUL at byte 2"),
        (#"name: "a\nb""#, "contains the control character 0x0A at byte 2"),
        ("name: .hidden", "begins with '.'"),
        ("name: \(long)", "is 300 bytes long; at most 128"),
    ])
    func refusedInTheFile(_ line: String, _ fragment: String) throws {
        let d = try V.single(V.minimal + line + "\n")
        expectDiagnostic(d, line: 9, column: 7, path: "name", fragment, "names its run directory")
    }

    @Test(arguments: ["../../ESCAPED", "/tmp/x", "..", String(repeating: "é", count: 100)])
    func refusedFromTheCommandLine(_ name: String) throws {
        let d = try V.single(V.minimal, overrides: ["name=\(name)"])
        #expect(d.path == "name" && d.message.contains("names its run directory"), "\(d)")
        #expect(d.message.contains("(set by --set)"), "\(d)")
    }

    @Test(arguments: ["walk-test", "Gangtest Übung 2", "v1.2_final", String(repeating: "n", count: 128)])
    func plainNamesLoad(_ name: String) throws {
        #expect(try V.load(V.minimal + "name: \"\(name)\"\n").name == name)
    }

    /// A default name comes from the file's name; one that could not be a directory name is
    /// replaced rather than refused, since the user never wrote it.
    @Test func aFileNameThatCannotBeADirectoryNameGivesPipeline() throws {
        let spec = try V.loader().load(text: V.minimal, file: "/tmp/..yaml")
        #expect(spec.name == "pipeline")
    }

    /// An embedding program can build a spec without the loader: the recorder refuses the name
    /// too, and makes no directory.
    @Test func theRecorderRefusesAPathAsName() throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("daq-name-\(UUID().uuidString)").path
        var spec = try V.load(V.minimal)
        spec.name = "../escaped"
        let run = try PipelineRun(spec: spec)
        #expect { try run.recorder.directory(under: base + "/out") } throws: { error in
            "\(error)".contains("the pipeline name '../escaped' contains '/'")
        }
        #expect(!FileManager.default.fileExists(atPath: base + "/escaped"))
        #expect(!FileManager.default.fileExists(atPath: base + "/out"))
    }
}
