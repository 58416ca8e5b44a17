import DAQCLI
import DAQCore
import DAQKit
import DAQTesting
import Foundation
import Yams

/// Paths, scratch files and inputs the conformance entries share.
enum Fixtures {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().path

    /// A file of the repository, by its path from the root.
    static func repo(_ path: String) -> String { repository + "/" + path }

    /// This test process's scratch folder, removed when the process exits: entries are built
    /// lazily and their files are read until the end, so no single test can remove them.
    static let scratchRoot: String = {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("daq-conformance-run-\(getpid())").path
        try? FileManager.default.removeItem(atPath: path)  // a crashed run's, with the same pid
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(atPath: Fixtures.scratchRoot) }
        return path
    }()

    /// A fresh temporary directory.
    static func scratch() -> String {
        let path = scratchRoot + "/" + UUID().uuidString
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// Writes `text` to a new file `name` in a fresh directory; returns its path.
    static func file(_ name: String, _ text: String) -> String {
        let path = scratch() + "/" + name
        FileManager.default.createFile(atPath: path, contents: Data(text.utf8))
        return path
    }

    /// An executable script; returns its path.
    static func script(_ name: String, _ text: String) -> String {
        let path = file(name, text)
        chmod(path, 0o755)
        return path
    }

    /// What the built-in source `type` reads with `config`, read by hand to the end.
    static func recorded(_ type: String, config: String) throws -> [Sample] {
        let plugin = BuiltinPlugins.all.first { $0.kind == .source && $0.typeName == type }!
        let node = try Yams.compose(yaml: config) ?? Node([(Node, Node)]())
        let context = PluginContext(
            componentName: "recorded", pipelineName: "fixture", baseDirectory: "", clock: .virtual)
        guard case .source(let source) = try plugin.makeStage(plugin.decodeConfiguration(node), context: context) else {
            fatalError("\(type) is not a source")
        }
        let harness = try SourceHarness(source)
        defer { harness.stop() }
        return try harness.read().samples
    }

    /// `count` samples made by repeating `samples`, each round `period` seconds after the last,
    /// so run-clock times keep rising.
    static func repeated(_ samples: [Sample], count: Int, period: Double) -> [Sample] {
        guard let first = samples.first?.uptime else { return [] }
        return (0..<count).map { i in
            var s = samples[i % samples.count]
            s.uptime = s.uptime - first + Double(i / samples.count) * period
            return s
        }
    }

    /// `count` accelerometer-like samples at 100 Hz: x, y, z in g.
    static func motion(_ count: Int) -> [Sample] {
        (0..<count).map { i in
            let t = Double(i) / 100
            return Sample(
                timestamp: 1_700_000_000 + t, uptime: t,
                fields: ["x": .double(sin(t)), "y": .double(cos(t)), "z": .double(1 + 0.1 * sin(3 * t))])
        }
    }

    /// `count` samples with an `id` field, cycling through `ids`.
    static func ids(_ ids: [String], count: Int) -> [Sample] {
        (0..<count).map { i in
            Sample(
                timestamp: 1_700_000_000 + Double(i) / 100, uptime: Double(i) / 100,
                fields: ["id": .string(ids[i % ids.count])])
        }
    }

    /// Lines in every regular file under `directory` that contain `text`.
    static func lines(in directory: String, containing text: String = "") -> Int {
        guard let walker = FileManager.default.enumerator(atPath: directory) else { return 0 }
        var n = 0
        for case let path as String in walker {
            guard let data = FileManager.default.contents(atPath: directory + "/" + path) else { continue }
            n +=
                String(decoding: data, as: UTF8.self).split(separator: "\n").filter {
                    text.isEmpty || $0.contains(text)
                }.count
        }
        return n
    }
}
