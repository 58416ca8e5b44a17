import DAQCore
import DAQInfoManager
import DAQStandard
import DAQTesting
import Foundation
import Testing

/// Runs `file → infomanager.resolve → collect` over ids, and the reference server as a process.
enum ResolverFixtures {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// A fresh temporary directory.
    static func scratch() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("daq-resolve-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    /// `daq resolver serve` on a free loopback port, with the elements `yaml` (or the shipped file).
    static func referenceServer(
        elements yaml: String? = nil, in dir: URL, arguments: [String] = [], environment: [String: String] = [:]
    )
        throws -> (ServiceProcess, url: String)
    {
        var path = repository.appendingPathComponent("recordings/elements.yaml").path
        if let yaml {
            path = dir.appendingPathComponent("elements.yaml").path
            try yaml.write(toFile: path, atomically: true, encoding: .utf8)
        }
        let server = try ServiceProcess.start(
            ServiceProcess.builtExecutable("daq"), ["resolver", "serve", "--data", path, "--port", "0"] + arguments,
            environment: environment)
        let line = try server.waitForLine { $0.hasPrefix("daq resolver: serving") }
        guard let url = line.split(separator: " ").last.map(String.init), url.hasPrefix("http://127.0.0.1:") else {
            server.stop()
            throw ServiceProcessError(message: "no URL in '\(line)'", output: line, errors: server.errorOutput)
        }
        return (server, url)
    }

    /// Runs the built `daq` with `arguments` to its end; `RESOLVER_URL` is taken only from
    /// `environment`, never from the test runner's.
    static func daq(_ arguments: [String], environment: [String: String] = [:]) throws -> (
        status: Int32, out: String, err: String
    ) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: ServiceProcess.builtExecutable("daq"))
        p.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        env["RESOLVER_URL"] = nil
        p.environment = env.merging(environment) { $1 }
        p.standardInput = FileHandle.nullDevice
        let r = try p.runToEnd(timeout: 300)
        return (r.status, r.output, r.errors)
    }

    /// Resolves `ids` (one sample each, 10 ms apart, in one file) through a pipeline whose
    /// resolver has the YAML `settings` (one `key: value` per line); with `deadLetters` a
    /// `collect` sink named `dead` reads `resolve.dead`.
    static func resolve(
        _ ids: [String], settings: String, in dir: URL, environment: [String: String] = [:], sink: Bool = false,
        batchSize: Int = 1024, deadLetters: Bool = false
    ) throws -> PipelineHarness.Outcome {
        let input = dir.appendingPathComponent("ids-\(UUID().uuidString).jsonl")
        var text = ""
        for (i, id) in ids.enumerated() {
            var line: [UInt8] = []
            JSONEncoding.appendString(id, to: &line)
            text += #"{"uptime":\#(Double(i) / 100),"id":\#(String(decoding: line, as: UTF8.self)),"n":\#(i)}"# + "\n"
        }
        try text.write(to: input, atomically: true, encoding: .utf8)
        let indented = settings.split(separator: "\n").map { "    " + $0 }.joined(separator: "\n")
        let dead = deadLetters ? "\n  dead: {type: collect, inputs: [resolve.dead]}" : ""
        let yaml =
            sink
            ? """
            name: resolve-test
            clock: virtual
            sources:
              input: {type: file, path: "\(input.path)", format: jsonl}
            sinks:
              resolve:
                type: infomanager.resolve
                inputs: [input]
            \(indented)\(dead)
            """
            : """
            name: resolve-test
            clock: virtual
            sources:
              input: {type: file, path: "\(input.path)", format: jsonl}
            transforms:
              resolve:
                type: infomanager.resolve
                inputs: [input]
            \(indented)
            sinks:
              out: {type: collect, inputs: [resolve]}\(dead)
            """
        return try PipelineHarness.run(
            yaml: yaml, plugins: StandardPlugins.all + InfoManagerPlugins.all, environment: environment,
            options: RunOptions(batchSize: batchSize, flushInterval: 0))
    }

    /// The warnings and notices a run reported.
    static func messages(_ outcome: PipelineHarness.Outcome) -> [String] {
        outcome.events.compactMap {
            switch $0 {
            case .warning(_, let message), .notice(_, let message): return message
            default: return nil
            }
        }
    }

    /// A port nothing listens on: bound, then closed.
    static func closedPort() throws -> Int {
        let server = try TestHTTPServer { _, _ in .silent }
        server.stop()
        return server.port
    }
}

extension PipelineHarness.Outcome {
    /// `field` of every data sample that reached `out`, as text.
    func strings(_ field: String, sink: String = "out") -> [String?] {
        data(sink).map { $0[field]?.stringValue }
    }
}
