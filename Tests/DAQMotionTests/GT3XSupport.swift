import DAQCore
import DAQTesting
import Foundation
import Testing

/// One sample a .gt3x should give: UTC time, axes in g, and whether it was filled in.
struct ExpectedRow {
    var time: Double
    var x: Double
    var y: Double
    var z: Double
    var filled: Bool
}

extension GT3XWriter {
    /// A writer configured by `change`.
    static func with(_ change: (inout GT3XWriter) -> Void) -> GT3XWriter {
        var w = GT3XWriter()
        change(&w)
        return w
    }

    /// Writes to a fresh `name` and returns the path.
    func file(_ name: String = "rec.gt3x") throws -> String {
        let path = tempDirectory() + "/" + name
        try write(to: path)
        return path
    }

    /// What a reader should give, worked out from the writer's settings independently of the
    /// bytes written: measured seconds carry `counts(n) / scale`; seconds slept through or
    /// missing repeat the last sample (when `fill`), corrupt seconds are absent.
    func expectedRows(fill: Bool = true) -> [ExpectedRow] {
        var rows: [ExpectedRow] = []
        var n = 0
        var last: ExpectedRow?
        for s in 0..<seconds {
            let base = Double(start + s)
            if isMeasured(s) {
                for i in 0..<rate {
                    let c = counts(n)
                    n += 1
                    let row = ExpectedRow(
                        time: base + Double(i) / Double(rate), x: Double(c.x) / scale, y: Double(c.y) / scale,
                        z: Double(c.z) / scale, filled: false)
                    if !corrupt.contains(s) {
                        rows.append(row)
                        last = row
                    }
                }
            } else if fill, let l = last {
                for i in 0..<rate {
                    rows.append(
                        ExpectedRow(time: base + Double(i) / Double(rate), x: l.x, y: l.y, z: l.z, filled: true))
                }
            }
        }
        return rows
    }
}

/// Checks `samples` against `expected`: times to 1 ms, values to 1e-6 g, the idle flag exactly.
func expectRows(
    _ samples: [Sample], _ expected: [ExpectedRow], _ what: String, sourceLocation: SourceLocation = #_sourceLocation
) {
    #expect(
        samples.count == expected.count, "\(what): \(samples.count) samples, expected \(expected.count)",
        sourceLocation: sourceLocation)
    var bad = 0
    for (s, e) in zip(samples, expected) {
        let idle = s["idle"] == .bool(true)
        let ok =
            close(s.timestamp, e.time, 1e-3) && close(s.number("x"), e.x, 1e-6) && close(s.number("y"), e.y, 1e-6)
            && close(s.number("z"), e.z, 1e-6) && idle == e.filled
        if !ok {
            bad += 1
            if bad <= 3 {
                Issue.record(
                    "\(what): got t=\(s.timestamp) (\(s.number("x")), \(s.number("y")), \(s.number("z"))) idle=\(idle), expected t=\(e.time) (\(e.x), \(e.y), \(e.z)) idle=\(e.filled)",
                    sourceLocation: sourceLocation)
            }
        }
    }
    #expect(bad == 0, "\(what): \(bad) samples differ", sourceLocation: sourceLocation)
}

/// Runs `python3 -c script args…` and returns what it printed; the test fails if it fails.
func python(_ script: String, _ args: [String]) throws -> String {
    let r = try pythonRun(script, args)
    try #require(r.status == 0, "python3 failed: \(r.errors.suffix(2000))")
    return r.output
}

/// Runs `python3 -c script args…` and returns how it ended, for a reader expected to fail.
/// Both outputs are read at once, so a chatty reader cannot block on a full pipe.
func pythonRun(_ script: String, _ args: [String]) throws -> ChildOutput {
    try Process.runToEnd("python3", ["-c", script] + args, timeout: 600)
}

/// Rows a Python reader wrote as `time,x,y,z,flag` lines (time in s, device local time).
func parseRows(_ text: String) -> [(time: Double, x: Double, y: Double, z: Double, flag: Bool)] {
    text.split(separator: "\n").compactMap { line in
        let c = line.split(separator: ",")
        guard c.count == 5, let t = Double(c[0]), let x = Double(c[1]), let y = Double(c[2]), let z = Double(c[3])
        else { return nil }
        return (t, x, y, z, c[4] == "1")
    }
}
