import Foundation
import Testing

/// A `daq run … --view ADDRESS` of a pipeline written for the test, with the view's URL and port
/// read from what it printed.
struct ViewRun {
    let name: String
    let directory: String
    let run: LiveProcess
    let url: String
    let port: Int
    var output: String { directory + "/out.csv" }

    /// `yaml` is the pipeline without its `name`; `OUT` in it is replaced by a fresh directory.
    init(_ yaml: String, view: String? = "127.0.0.1:0", extra: [String] = []) throws {
        name = "view-\(UUID().uuidString.prefix(8).lowercased())"
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("daq-\(name)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let file = directory + "/pipeline.yaml"
        // The shipped walk, with a header that names its unit, for pipelines that read OUT/walk.csv.
        let walk = try String(
            contentsOf: DAQBinary.repository.appendingPathComponent("recordings/walk.csv"), encoding: .utf8)
        let rows = walk.split(separator: "\n", maxSplits: 1)[1]
        try ("timestamp,x (g),y (g),z (g)\n" + rows).write(
            toFile: directory + "/walk.csv", atomically: true, encoding: .utf8)
        try ("name: \(name)\n" + yaml.replacingOccurrences(of: "OUT", with: directory))
            .write(toFile: file, atomically: true, encoding: .utf8)
        run = try LiveProcess(
            ["run", file, "--status", "never", "--log-level", "info"] + (view.map { ["--view", $0] } ?? []) + extra)
        guard view != nil else {
            url = ""
            port = 0
            _ = try #require(run.line { $0.contains("control socket: ") }, "\(run.stderr)")
            return
        }
        let line = try #require(run.line { $0.contains("daq: view: ") }, "no view URL; stderr:\n\(run.stderr)")
        url = String(line[line.range(of: "daq: view: ")!.upperBound...])
        let afterHost = try #require(url.split(separator: ":").last, "\(url)")
        port = try #require(Int(afterHost.prefix { $0.isNumber }), "\(url)")
    }

    /// The run's state as `daq top` reports it (running, paused, …).
    func state() throws -> String {
        let top = try DAQBinary.run(["top", name, "--once", "--interval", "0.05"])
        let header = top.out.split(separator: "\n").first.map(String.init) ?? ""
        guard let dash = header.range(of: " — ") else { return "" }
        return String(header[dash.upperBound...].prefix { $0 != "," })
    }

    /// Waits at most `timeout` seconds for the run's state to become `expected`.
    func waitForState(_ expected: String, timeout: Double = 30) throws -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        repeat {
            if try state() == expected { return true }
        } while Date() < deadline
        return false
    }

    /// The manifest of the run's directory, once the run has ended.
    func manifest() throws -> [String: Any] {
        let runs = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasPrefix(name + "-") }
        let dir = try #require(runs.first, "no run directory in \(directory)")
        let data = try Data(contentsOf: URL(fileURLWithPath: "\(directory)/\(dir)/manifest.json"))
        return try #require(JSONSerialization.jsonObject(with: data) as? [String: Any])
    }
}
