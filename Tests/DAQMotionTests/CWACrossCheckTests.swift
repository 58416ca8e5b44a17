import DAQCore
import DAQMotion
import DAQTesting
import Foundation
import Testing

/// .cwa read by `motion.replay` against actfast 1.3.0 (Rust, childmindresearch) on files from
/// the DAQTesting writer: AX3 packed, AX6 with its gyroscope, and a file with a corrupt sector.
/// Axes agree to 1e-6 g and times to 1 ms; where the readers differ by design, the test says how.
@Suite(.timeLimit(.minutes(20))) struct CWACrossCheckTests {
    /// actfast's high-frequency table: device local time from int64 ns, x, y, z (g, float32),
    /// and gx, gy, gz (°/s, float32; zeros when there is no gyroscope). argv[2] = 1: lenient.
    static let script = """
        import sys, numpy as np, actfast
        d = actfast.read(sys.argv[1], lenient=sys.argv[2] == '1')
        h = d['timeseries']['high_frequency']
        t = h['datetime'].astype('float64') / 1e9
        a = np.asarray(h['acceleration'], dtype='float64').reshape(-1, 3)
        g = np.asarray(h['gyroscope'], dtype='float64').reshape(-1, 3) if 'gyroscope' in h else np.zeros((len(t), 3))
        np.savetxt(sys.stdout, np.column_stack([t, a, g]), fmt=['%.6f'] + ['%.9g'] * 6, delimiter=',')
        print('warnings', len(d['warnings']))
        """

    struct Row {
        var time: Double
        var values: [Double]
    }

    func actfast(_ path: String, lenient: Bool = false) throws -> (rows: [Row], warnings: Int) {
        let text = try python(Self.script, [path, lenient ? "1" : "0"])
        var rows: [Row] = []
        var warnings = -1
        for line in text.split(separator: "\n") {
            if line.hasPrefix("warnings ") {
                warnings = Int(line.dropFirst(9)) ?? -1
                continue
            }
            let c = line.split(separator: ",").compactMap { Double($0) }
            if c.count == 7 { rows.append(Row(time: c[0], values: Array(c[1...]))) }
        }
        return (rows, warnings)
    }

    /// Axes to 1e-6 g; the gyroscope, which actfast keeps as float32 of up to ±2000 °/s, to
    /// float32's precision (1e-6 relative); times to 1 ms.
    func compare(_ ours: [Sample], _ theirs: [Row], gyro: Bool, _ what: String) {
        #expect(ours.count == theirs.count, "\(what): \(ours.count) samples here, \(theirs.count) there")
        var bad = 0
        for (s, r) in zip(ours, theirs) {
            var ok = close(s.timestamp, r.time, 1e-3)
            for (k, name) in ["x", "y", "z"].enumerated() { ok = ok && close(s.number(name), r.values[k], 1e-6) }
            if gyro {
                for (k, name) in ["gx", "gy", "gz"].enumerated() {
                    ok = ok && close(s.number(name), r.values[3 + k], 1e-6 * max(1, abs(r.values[3 + k])))
                }
            }
            if !ok {
                bad += 1
                if bad <= 3 {
                    Issue.record(
                        "\(what): here t=\(s.timestamp) \(["x", "y", "z", "gx", "gy", "gz"].map { s.number($0) }); there \(r)"
                    )
                }
            }
        }
        #expect(bad == 0, "\(what): \(bad) samples differ")
    }

    @Test func packedAX3AgreesWithActfast() throws {
        let w = CWAWriter.with {
            $0.seconds = 120
            $0.range = 16
        }
        let path = try w.file()
        let (ours, _) = try replayAll(path)
        expectCWARows(ours, w.expectedRows(), "motion.replay")
        compare(ours, try actfast(path).rows, gyro: false, "actfast")
    }

    @Test func ax6WithItsGyroscopeAgreesWithActfast() throws {
        let w = CWAWriter.with {
            $0.device = .ax6
            $0.seconds = 60
            $0.gyroRange = 1000
        }
        let path = try w.file()
        let (ours, _) = try replayAll(path)
        expectCWARows(ours, w.expectedRows(), "motion.replay")
        compare(ours, try actfast(path).rows, gyro: true, "actfast")
    }

    @Test func aCorruptSectorIsSkippedByBoth() throws {
        let w = CWAWriter.with {
            $0.seconds = 30
            $0.corrupt = [5, 6, 20]
            $0.packing = .unpacked
        }
        let path = try w.file()
        let (ours, events) = try replayAll(path, "on_bad_row: skip")
        expectCWARows(ours, w.expectedRows(), "motion.replay")
        #expect(events.warnings.contains("skipped 3 corrupt block(s) in all"))
        // actfast fails on a bad checksum unless lenient; lenient, it warns and skips the sector too.
        let (theirs, warnings) = try actfast(path, lenient: true)
        #expect(warnings == 3)
        compare(ours, theirs, gyro: false, "actfast")
    }

    /// By design: actfast lays each sector's samples out at the nominal rate from its timestamp,
    /// omconvert (and this reader) spread them between consecutive timestamps. With a clock 0.2 %
    /// fast they part by up to the drift over one sector (0.2 % of 1.2 s = 2.4 ms); values agree.
    @Test func aDriftingClockIsWhereTheTimesPartByDesign() throws {
        let w = CWAWriter.with {
            $0.seconds = 30
            $0.drift = 0.002
        }
        let path = try w.file()
        let (ours, _) = try replayAll(path)
        expectCWARows(ours, w.expectedRows(), "motion.replay")
        let theirs = try actfast(path).rows
        #expect(ours.count == theirs.count)
        let worst = zip(ours, theirs).map { abs($0.timestamp - $1.time) }.max() ?? 0
        #expect(worst > 1e-3 && worst < 3e-3, "\(worst)")
        let valuesAgree = zip(ours, theirs).allSatisfy { s, r in
            close(s.number("x"), r.values[0], 1e-6) && close(s.number("y"), r.values[1], 1e-6)
                && close(s.number("z"), r.values[2], 1e-6)
        }
        #expect(valuesAgree)
    }
}
