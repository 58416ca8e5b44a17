import Foundation
import Testing

/// `daq batch --view` in a real headless Chromium: progress per recording, and the signals of
/// the recording under way, following it from one recording to the next.
@Suite("live view of a batch")
struct BatchViewTests {
    /// The shipped walk repeated `times` over, each copy a minute later: a batch runs on the
    /// virtual clock, and 600,000 rows keep a recording under way for some seconds, long enough
    /// for the page to see it.
    static func longWalk(times: Int) throws -> String {
        let walk = try String(
            contentsOf: DAQBinary.repository.appendingPathComponent("recordings/walk.csv"), encoding: .utf8)
        let rows = walk.split(separator: "\n").dropFirst().map { row -> (Double, Substring) in
            let comma = row.firstIndex(of: ",")!
            return (Double(row[..<comma])!, row[comma...])
        }
        var out = "timestamp,x,y,z\n"
        out.reserveCapacity(rows.count * times * 40)
        for k in 0..<times {
            for (t, rest) in rows { out += "\(t + Double(k) * 60)\(rest)\n" }
        }
        return out
    }

    @Test(.timeLimit(.minutes(5)))
    func thePageShowsEachRecordingsStatusAndFollowsTheOneUnderWay() throws {
        let dir = try BatchSupport.scratch("batch-view")
        defer { try? FileManager.default.removeItem(at: dir) }
        let recording = try Self.longWalk(times: 100)
        for name in ["first", "second"] {
            try recording.write(to: dir.appendingPathComponent("\(name).csv"), atomically: true, encoding: .utf8)
        }
        let pipeline = dir.appendingPathComponent("walk.yaml")
        try """
        name: batch-view
        sources:
          accel: { type: motion.replay, path: recordings/walk.csv, time_unit: s }
        transforms:
          magnitude: { type: motion.magnitude, inputs: [accel] }
        sinks:
          table: { type: null, inputs: [magnitude] }
        """.write(to: pipeline, atomically: true, encoding: .utf8)
        let batch = try LiveProcess([
            "batch", pipeline.path, "--input", dir.appendingPathComponent("first.csv").path,
            dir.appendingPathComponent("second.csv").path, "--output", dir.appendingPathComponent("results").path,
            "--jobs", "1", "--progress", "never", "--view", "127.0.0.1:0",
        ])
        let line = try #require(batch.line { $0.contains("daq: view: ") }, "\(batch.stderr)")
        let url = String(line[line.range(of: "daq: view: ")!.upperBound...])
        let browser = try HeadlessBrowser()
        try browser.open(url)
        let statuses = "[...document.querySelectorAll('#recordings tbody tr')].map(r => r.dataset.status).join(',')"
        let charted =
            "(() => { const c = document.querySelector('.chart[data-stream=\"accel\"]'); return !!c && Number(c.dataset.points) > 3; })()"
        let showing = "document.getElementById('batch-summary').textContent"
        #expect(try browser.wait(until: "\(statuses) === 'running,waiting'"))
        #expect(try browser.wait(until: "\(showing).includes('showing') && \(showing).includes('first.csv')"))
        #expect(try browser.wait(until: charted))
        #expect(try browser.wait(until: "document.getElementById('pipeline').textContent === 'batch-view'"))
        // The first recording done, the page follows the second.
        #expect(try browser.wait(timeout: 60, until: "\(statuses) === 'finished,running'"))
        #expect(try browser.wait(until: "\(showing).includes('second.csv')"))
        #expect(try browser.wait(until: charted))
        #expect(batch.finish(timeout: 120) == 0, "\(batch.stderr)")
        #expect(try browser.evaluate("document.getElementById('errors').textContent") as? String == "")
        #expect(browser.errors.isEmpty, "\(browser.errors)")
    }
}
