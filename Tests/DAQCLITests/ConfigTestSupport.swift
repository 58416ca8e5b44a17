import DAQTesting
import Foundation

/// Runs the built `daq` from the package root, as a user runs `daq test`.
enum DaqCommand {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    struct Result {
        var status: Int32
        var output: String
        var errors: String
    }

    /// Runs `daq arguments` to its end; both outputs are read while it runs, so neither fills up.
    /// `environment` changes the test's own: a value sets a variable, `nil` removes it.
    static func run(_ arguments: [String], environment: [String: String?] = [:]) throws -> Result {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: ServiceProcess.builtExecutable("daq"))
        p.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        for (name, value) in environment { env[name] = value }
        p.environment = env
        p.currentDirectoryURL = root
        p.standardInput = FileHandle.nullDevice
        let r = try p.runToEnd(timeout: 300)
        return Result(status: r.status, output: r.output, errors: r.errors)
    }

    /// Whether a test file needs an MQTT broker (`requires: [MQTT_URL]`).
    static func needsBroker(_ file: String) throws -> Bool {
        let text = try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8)
        return text.split(separator: "\n").contains { $0.hasPrefix("requires:") && $0.contains("MQTT_URL") }
    }

    /// Runs `daq arguments` with a Mosquitto broker on loopback in MQTT_URL, stopped after.
    static func runWithBroker(_ arguments: [String]) throws -> Result {
        let broker = try Mosquitto()
        try broker.start()
        defer { broker.stop() }
        return try run(arguments, environment: ["MQTT_URL": broker.url])
    }

    /// Test files under `folder` (relative to the root), sorted.
    static func testFiles(in folder: String) -> [String] {
        let dir = root.appendingPathComponent(folder).path
        return ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? [])
            .filter { $0.hasSuffix(".daqtest.yaml") }.sorted().map { "\(folder)/\($0)" }
    }
}
