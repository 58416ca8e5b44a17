import DAQCore
import DAQTesting
import Foundation
import Testing

/// A marker stream's text travels as the `marker` field of `event` samples, the name the loggers
/// also give a step marker's kind: the text must reach every log, not be dropped as a clash.
@Suite(.timeLimit(.minutes(10))) struct XDFMarkersInLogsTests {
    @Test func aMarkerStreamsTextReachesTheCSVAndJSONLinesLogs() throws {
        let dir = xdfTemporaryDirectory()
        // The shipped session: written from the XDF spec by the tests' own writer, read by pyxdf.
        let recording =
            URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("recordings/session.xdf").path
        let theirs = try #require(try XDFFixture.pyxdf(recording).first { $0.name == "Markers" })
        let texts = theirs.values.map { $0.first?.stringValue ?? "" }
        try #require(!texts.isEmpty)
        try """
        name: markers
        clock: virtual
        sources:
          xdf: {type: xdf.replay, path: "\(recording)", streams: [Markers]}
        sinks:
          csv: {type: logger.csv, inputs: [xdf], directory: "\(dir)"}
          jsonl: {type: logger.jsonl, inputs: [xdf], directory: "\(dir)"}
        """.write(toFile: dir + "/p.yaml", atomically: true, encoding: .utf8)
        let r = try XDFDaqTests.daqRun(["run", dir + "/p.yaml", "--status", "never", "--no-control"])
        #expect(r.status == 0, "\(r.errors)")
        #expect(!r.errors.contains("item key"), "\(r.errors)")
        let run = try #require(
            try FileManager.default.contentsOfDirectory(atPath: dir).first { $0.hasPrefix("markers-") })
        let items = try XDFDaqTests.items("\(dir)/\(run)/xdf.jsonl").filter { $0["kind"] == .string("event") }
        #expect(items.compactMap { $0["marker"]?.stringValue } == texts)
        // logger.csv: the text in the `marker` column (the 5th), read by Python's csv module; the
        // step markers' rows have no stream_name.
        let csv = try Process.runToEnd(
            "/usr/bin/env",
            [
                "python3", "-c",
                "import csv,json,sys; r=list(csv.DictReader(open(sys.argv[1], newline=''))); "
                    + "print(json.dumps([x['marker'] for x in r if x['stream_name'] == 'Markers']))",
                "\(dir)/\(run)/xdf.csv",
            ])
        #expect(csv.status == 0, "\(csv.errors)")
        let read = try JSONSerialization.jsonObject(with: Data(csv.output.utf8)) as? [String]
        #expect(read == texts, "\(csv.output)")
    }
}
