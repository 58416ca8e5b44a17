import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `daq run` with `metrics: {prometheus: …}` scraped over loopback, and its log formats.
@Suite("metrics and logs", .timeLimit(.minutes(20)))
struct ObservabilityTests {
    static func get(_ url: String) throws -> (status: Int, type: String, body: String) {
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var result: (Int, String, String)?
        nonisolated(unsafe) var failure: (any Error)?
        URLSession.shared.dataTask(with: URL(string: url)!) { data, response, error in
            if let error { failure = error }
            let http = response as? HTTPURLResponse
            result = (
                http?.statusCode ?? 0, http?.value(forHTTPHeaderField: "Content-Type") ?? "",
                String(decoding: data ?? Data(), as: UTF8.self)
            )
            done.signal()
        }.resume()
        done.wait()
        if let failure { throw failure }
        return result!
    }

    /// The value of the series whose line starts with `prefix`, if it is there.
    static func value(_ body: String, _ prefix: String) -> Double? {
        body.split(separator: "\n").first { $0.hasPrefix(prefix) }.flatMap {
            Double($0.split(separator: " ").last ?? "")
        }
    }

    static func pipeline(_ yaml: String) throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("daq-obs-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let file = dir.appendingPathComponent("p.yaml").path
        try yaml.write(toFile: file, atomically: true, encoding: .utf8)
        return file
    }

    @Test func thePrometheusEndpointCountsEveryStageAsSamplesFlow() throws {
        let file = try Self.pipeline(
            """
            name: metered
            metrics:
              prometheus:
                listen: 127.0.0.1:0
            sources:
              in: {type: stdin, format: jsonl}
            transforms:
              pos: {type: filter, inputs: [in], expr: "v > 0", buffer: {size: 500, when_full: block}}
            sinks:
              out: {type: null, inputs: [pos]}
            """)
        let run = try LiveProcess(["run", file, "--status", "never"])
        let announced = try #require(run.line { $0.contains("metrics: http://127.0.0.1:") }, "\(run.stderr)")
        let url = String(announced[announced.range(of: "http://")!.lowerBound...])
        for i in 0..<90 { run.send("{\"v\": \(i % 3)}\n") }  // 60 pass the filter

        let sink = "daq_stage_samples_in_total{pipeline=\"metered\",component=\"out\",kind=\"sink\",type=\"null\"}"
        var body = ""
        let deadline = Date(timeIntervalSinceNow: 30)
        while Date() < deadline {
            body = try Self.get(url).body
            if Self.value(body, sink) == 60 { break }
            usleep(20_000)  // between scrapes only; the assertion waits for the count, not for time
        }
        #expect(Self.value(body, sink) == 60, "\(body)")
        let labels = "{pipeline=\"metered\",component=\"pos\",kind=\"transform\",type=\"filter\"}"
        #expect(Self.value(body, "daq_stage_samples_in_total" + labels) == 90)
        #expect(Self.value(body, "daq_stage_samples_out_total" + labels) == 60)
        #expect(Self.value(body, "daq_stage_buffer_capacity" + labels) == 500)
        #expect(Self.value(body, "daq_stage_buffer_samples" + labels) != nil)
        #expect(Self.value(body, "daq_stage_errors_total" + labels) == 0)
        #expect(body.contains("# TYPE daq_sink_delivered_total counter"))

        let response = try Self.get(url)
        #expect(response.status == 200 && response.type.hasPrefix("text/plain; version=0.0.4"))
        #expect(try Self.get(url.replacingOccurrences(of: "/metrics", with: "/other")).status == 404)
        #expect(run.finish() == 0, "\(run.stderr)")
    }

    @Test func aBadListenAddressIsAConfigurationError() throws {
        let file = try Self.pipeline(
            """
            metrics:
              prometheus:
                listen: localhost
            sources:
              in: {type: generator, count: 1}
            sinks:
              out: {type: null, inputs: [in]}
            """)
        let r = try DAQBinary.run(["validate", file])
        #expect(r.status == 2)
        #expect(r.err.contains("p.yaml:3:13: error: metrics.prometheus.listen: expected HOST:PORT"), "\(r.err)")
    }

    @Test func jsonLogLinesCarryLevelComponentAndMessage() throws {
        let file = try Self.pipeline(
            """
            sources:
              in: {type: stdin, format: jsonl, on_bad_row: skip}
            sinks:
              out: {type: null, inputs: [in]}
            """)
        let run = try LiveProcess(["run", file, "--log-format", "json", "--quiet"])
        run.send("{\"v\": 1}\nnot json\n")
        #expect(run.finish() == 0)
        let line = try #require(run.stderr.split(separator: "\n").first { $0.hasPrefix("{") }, "\(run.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: String])
        #expect(object["level"] == "warning")
        #expect(object["component"] == "in")
        #expect(object["message"]?.contains("<stdin>:2") == true, "\(object)")
        #expect(object["time"]?.hasSuffix("Z") == true)

        let quiet = try LiveProcess(["run", file, "--log-level", "error", "--quiet"])
        quiet.send("not json\n")
        #expect(quiet.finish() == 0, "\(quiet.stderr)")
        #expect(!quiet.stderr.contains("warning"), "\(quiet.stderr)")
    }
}
