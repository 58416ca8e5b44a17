import DAQCore
import DAQTesting
import Foundation
import Testing

/// One sample a .cwa should give: UTC time, axes in g, gyroscope in °/s (AX6), and the sector's
/// temperature (°C) and light.
struct CWAExpectedRow {
    var time: Double
    var x: Double, y: Double, z: Double
    var gyro: (x: Double, y: Double, z: Double)?
    var temperature: Double
    var light: Double
}

extension CWAWriter {
    /// A writer configured by `change`.
    static func with(_ change: (inout CWAWriter) -> Void) -> CWAWriter {
        var w = CWAWriter()
        change(&w)
        return w
    }

    /// Writes to a fresh `name` and returns the path.
    func file(_ name: String = "rec.cwa") throws -> String {
        let path = tempDirectory() + "/" + name
        try write(to: path)
        return path
    }

    /// What a reader should give, from the writer's settings rather than the bytes written: the
    /// true time of each sample (local time less `utcOffset`), counts × scale, corrupt sectors absent.
    func expectedRows(utcOffset: Double = 0) -> [CWAExpectedRow] {
        var rows: [CWAExpectedRow] = []
        let per = samplesPerSector
        for n in 0..<sampleCount where !corrupt.contains(n / per) {
            let c = stored(n)
            let g = device == .ax6 ? gyroCounts(n) : nil
            rows.append(
                CWAExpectedRow(
                    time: time(n) - utcOffset, x: Double(c.x) * accelScale, y: Double(c.y) * accelScale,
                    z: Double(c.z) * accelScale,
                    gyro: g.map {
                        (x: Double($0.x) * gyroScale, y: Double($0.y) * gyroScale, z: Double($0.z) * gyroScale)
                    },
                    temperature: Double(temperatureCode(n / per)) * 75 / 256 - 50, light: Double(lightCode(n / per))))
        }
        return rows
    }
}

/// Checks `samples` against `expected`: times within `timeTolerance`, values to 1e-9, every channel.
func expectCWARows(
    _ samples: [Sample], _ expected: [CWAExpectedRow], _ what: String, timeTolerance: Double = 1e-4,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    #expect(
        samples.count == expected.count, "\(what): \(samples.count) samples, expected \(expected.count)",
        sourceLocation: sourceLocation)
    var bad = 0
    for (s, e) in zip(samples, expected) {
        var ok =
            close(s.timestamp, e.time, timeTolerance) && close(s.number("x"), e.x) && close(s.number("y"), e.y)
            && close(s.number("z"), e.z) && close(s.number("temperature"), e.temperature)
            && close(s.number("light"), e.light)
        if let g = e.gyro {
            ok = ok && close(s.number("gx"), g.x) && close(s.number("gy"), g.y) && close(s.number("gz"), g.z)
        } else {
            ok = ok && s["gx"] == nil
        }
        if !ok {
            bad += 1
            if bad <= 3 {
                Issue.record(
                    "\(what): got t=\(s.timestamp) (\(s.number("x")), \(s.number("y")), \(s.number("z"))) gyro (\(s.number("gx")), \(s.number("gy")), \(s.number("gz"))) T=\(s.number("temperature")) light=\(s.number("light")); expected \(e)",
                    sourceLocation: sourceLocation)
            }
        }
    }
    #expect(bad == 0, "\(what): \(bad) samples differ", sourceLocation: sourceLocation)
}
