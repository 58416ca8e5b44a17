import DAQCore
import DAQTesting
import Foundation
import Testing

/// `daq plugins new` for Swift packages, through the built `daq`: the files, their syntax, the
/// DAQKit path, and every refusal. That a scaffold builds and its tests pass is checked by
/// scripts/test.sh, which compiles one of each kind.
@Suite("daq plugins new", .timeLimit(.minutes(30)))
struct ScaffoldTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    @Test(arguments: PluginKind.allCases)
    func writesASwiftPackage(_ kind: PluginKind) throws {
        let scratch = try Scratch()
        let run = try Daq.run(
            ["plugins", "new", "lab.probe", "--kind", kind.rawValue, "--output", "pkg"], in: scratch.url)
        #expect(run.status == 0, "\(run.stderr)")
        let type = "LabProbe" + kind.rawValue.prefix(1).uppercased() + kind.rawValue.dropFirst()
        let expected = [
            ".gitignore", "Package.swift", "README.md", "Sources/LabProbePlugin/LabProbePlugins.swift",
            "Sources/LabProbePlugin/\(type).swift", "Tests/LabProbePluginTests/\(type)Tests.swift",
            "pipelines/lab.probe.yaml", "daq/Package.swift", "daq/Sources/daq-lab-probe/main.swift",
        ]
        #expect(try scratch.files(under: "pkg") == expected.sorted())
        let command = "swift run --package-path daq daq-lab-probe run pipelines/lab.probe.yaml"
        #expect(run.stdout.hasSuffix("  swift test\n  \(command)\n"), "\(run.stdout)")
        for file in expected { #expect(run.stdout.contains("  \(file)\n"), "summary lacks \(file)") }
        // The package depends on the checkout this daq was built from: this one.
        let manifest = try scratch.read("pkg/Package.swift")
        #expect(manifest.contains(#".package(name: "DAQKit", path: "\#(Self.root)")"#))
        // A package of plugins: the plugin API and the test harness, not DAQKit and its networking.
        #expect(manifest.contains(#".product(name: "DAQCore", package: "DAQKit")"#))
        #expect(manifest.contains(#".product(name: "DAQTesting", package: "DAQKit")"#))
        #expect(!manifest.contains(#".product(name: "DAQKit""#), "\(manifest)")
        #expect(!manifest.contains("executableTarget"))
        let plugin = try scratch.read("pkg/Sources/LabProbePlugin/\(type).swift")
        #expect(plugin.contains("public final class \(type): \(type.dropFirst(8))Plugin {"))
        #expect(plugin.contains("public static let typeName = \"lab.probe\""))
        #expect(!plugin.contains("import DAQKit"))
        // A daq with the plugin is a package of its own: the plugin package's build stays light.
        let runner = try scratch.read("pkg/daq/Package.swift")
        #expect(runner.contains(#".package(name: "lab.probe", path: "..")"#), "\(runner)")
        #expect(runner.contains(#".product(name: "DAQKit", package: "DAQKit")"#), "\(runner)")
        #expect(
            try scratch.read("pkg/daq/Sources/daq-lab-probe/main.swift").contains(
                "DAQCommand.main(plugins: BuiltinPlugins.all + LabProbePlugins.all)"))
        #expect(try scratch.read("pkg/README.md").contains(command))
        #expect(try scratch.read("pkg/pipelines/lab.probe.yaml").contains("type: lab.probe\n"))
        // Every Swift file parses; type-checking needs DAQKit built, which scripts/test.sh does.
        let swiftFiles = expected.filter { $0.hasSuffix(".swift") }.map {
            scratch.url.appendingPathComponent("pkg/\($0)").path
        }
        // One at a time: the two manifests and main.swift are each a file of top-level code.
        for file in swiftFiles {
            let parse = try Daq.run(["swiftc", "-parse", file], in: scratch.url, executable: "/usr/bin/env")
            #expect(parse.status == 0, "\(file): \(parse.stderr)")
        }
    }

    @Test func daqkitOptionIsResolvedAndChecked() throws {
        let scratch = try Scratch()
        try FileManager.default.createDirectory(
            at: scratch.url.appendingPathComponent("kit"), withIntermediateDirectories: true)
        try #"let package = Package(name: "DAQKit")"#.write(
            to: scratch.url.appendingPathComponent("kit/Package.swift"), atomically: true, encoding: .utf8)
        let ok = try Daq.run(["plugins", "new", "probe", "--kind", "source", "--daqkit", "kit/"], in: scratch.url)
        #expect(ok.status == 0, "\(ok.stderr)")
        #expect(
            try scratch.read("probe/Package.swift").contains(
                #"path: "\#(scratch.url.appendingPathComponent("kit").path)")"#))

        let bad = try Daq.run(["plugins", "new", "probe2", "--kind", "source", "--daqkit", "probe"], in: scratch.url)
        #expect(bad.status == 64)
        #expect(bad.stderr.contains("is not a DAQKit checkout"))
        #expect(!FileManager.default.fileExists(atPath: scratch.url.appendingPathComponent("probe2").path))
    }

    @Test(arguments: [
        ("", "the plugin name is empty"),
        ("Probe", "'Probe' is not a valid plugin name"),
        ("1probe", "is not a valid plugin name"),
        ("my probe", "is not a valid plugin name"),
        ("lab..probe", "is not a valid plugin name"),
        ("probe-", "is not a valid plugin name"),
        ("thermomètre", "is not a valid plugin name"),
        (String(repeating: "a", count: 49), "use at most 48"),
    ])
    func refusesABadName(_ name: String, _ message: String) throws {
        let scratch = try Scratch()
        let run = try Daq.run(["plugins", "new", name, "--kind", "transform"], in: scratch.url)
        #expect(run.status == 64)
        #expect(run.stderr.contains(message), "\(run.stderr)")
        #expect(run.stderr.contains("e.g. 'pt100'") || name.count > 48)
        #expect(try scratch.files(under: ".").isEmpty)
    }

    @Test func refusesAFolderThatIsNotEmpty() throws {
        let scratch = try Scratch()
        try FileManager.default.createDirectory(
            at: scratch.url.appendingPathComponent("mine"), withIntermediateDirectories: true)
        try "notes".write(to: scratch.url.appendingPathComponent("mine/notes.txt"), atomically: true, encoding: .utf8)
        let run = try Daq.run(["plugins", "new", "probe", "--kind", "sink", "--output", "mine"], in: scratch.url)
        #expect(run.status == 64)
        #expect(run.stderr.contains("'mine' is not empty (1 entries); nothing was written"))
        #expect(try scratch.files(under: "mine") == ["notes.txt"])

        // An empty folder, made ahead for the plugin, is used.
        try FileManager.default.createDirectory(
            at: scratch.url.appendingPathComponent("empty"), withIntermediateDirectories: true)
        let ok = try Daq.run(
            ["plugins", "new", "probe", "--kind", "sink", "--output", "empty", "--exec", "python"], in: scratch.url)
        #expect(ok.status == 0, "\(ok.stderr)")
        #expect(try scratch.files(under: "empty").contains("probe_sink.py"))
    }

    @Test func refusesTheNameOfABuiltinOfTheSameKind() throws {
        let scratch = try Scratch()
        let run = try Daq.run(["plugins", "new", "window", "--kind", "transform"], in: scratch.url)
        #expect(run.status == 64)
        #expect(run.stderr.contains("this daq already has a transform named 'window'"))
        #expect(try scratch.files(under: ".").isEmpty)
    }

    @Test func daqkitDoesNotGoWithExec() throws {
        let scratch = try Scratch()
        let run = try Daq.run(
            ["plugins", "new", "probe", "--kind", "source", "--exec", "python", "--daqkit", "."], in: scratch.url)
        #expect(run.status == 64)
        #expect(run.stderr.contains("--daqkit is for Swift packages"))
    }
}

/// A temporary folder of a test's own, removed when the test ends.
final class Scratch {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("daq-scaffold-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    /// Every regular file under `folder`, relative to it, sorted.
    func files(under folder: String) throws -> [String] {
        let base = url.appendingPathComponent(folder).standardizedFileURL
        guard let walker = FileManager.default.enumerator(at: base, includingPropertiesForKeys: [.isRegularFileKey])
        else { return [] }
        return try walker.compactMap { item -> String? in
            let file = (item as! URL).standardizedFileURL
            guard try file.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile == true else { return nil }
            return String(file.path.dropFirst(base.path.count + 1))
        }.sorted()
    }

    func read(_ path: String) throws -> String {
        try String(contentsOf: url.appendingPathComponent(path), encoding: .utf8)
    }
}

/// Runs the `daq` built beside the tests (or another program) to its end.
enum Daq {
    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// Runs `arguments` in `directory`; output goes to files, so a chatty program cannot fill a pipe and stall.
    static func run(
        _ arguments: [String], in directory: URL, executable: String = ServiceProcess.builtExecutable("daq")
    ) throws -> Result {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: executable)
        p.arguments = arguments
        p.currentDirectoryURL = directory
        p.standardInput = FileHandle.nullDevice
        // `swift build` of a scaffolded package among them: minutes on a loaded machine.
        let r = try p.runToEnd(timeout: 1500)
        return Result(status: r.status, stdout: r.output, stderr: r.errors)
    }
}
