import DAQCore
import DAQMotion
import DAQTesting
import Foundation
import Testing

/// M5, L5 and band minutes against scikit-digital-health 0.17.18 (`skdh.activity.endpoints`:
/// `MaxAcceleration(300)`, `MinAcceleration(300)`, `TotalIntensityTime` with our bands as its
/// cutpoints; PyPI, installed by scripts/test.sh), on the same day of 5 s epochs.
///
/// skdh runs its endpoints on each block of wear time it is given, with `required_points=1.0`
/// (a window must be complete), and keeps the largest (smallest) over the blocks: that is our
/// rule that a window must be worn throughout, so the script hands it the day's worn runs one
/// by one. What differs by design: skdh reports no window start times (only ours are checked,
/// in ``DailySummaryTests``), cuts no calendar days (it is handed one), and works in g (our
/// mg divided by 1000; the values are chosen off the band edges).
@Suite(.timeLimit(.minutes(20))) struct DailySummaryCrossCheckTests {
    static let script = """
        import sys, numpy as np
        from skdh.activity.endpoints import MaxAcceleration, MinAcceleration, TotalIntensityTime
        rows = np.loadtxt(sys.argv[1], delimiter=',')
        g, worn = rows[:, 0] / 1000, rows[:, 1] >= 0.5
        cut = {'metric': 'metric_enmo', 'kwargs': {}, 'sedentary': 0.04, 'light': 0.1, 'moderate': 0.4}
        ends = [MaxAcceleration(300), MinAcceleration(300)]
        ends += [TotalIntensityTime(level, 5, cutpoints=cut) for level in ('sed', 'light', 'mod', 'vig')]
        results = {}
        for e in ends:
            for name in (e.name if isinstance(e.name, list) else [e.name]):
                results[name] = np.array([np.nan if ' acc ' in name else 0.0])
        edges = np.flatnonzero(np.diff(np.concatenate(([0], worn.astype(int), [0]))))
        for start, stop in zip(edges[::2], edges[1::2]):
            for e in ends:
                e.predict(results=results, i=0, accel_metric=g[start:stop], accel_metric_60=None,
                          epoch_s=5, epochs_per_min=12)
        for name in sorted(results):
            print('%s=%.9f' % (name, results[name][0]))
        """

    /// A seeded day of 5 s epochs: a quiet night, a varied day with bursts, an evening; off
    /// the wrist from 13:00 to 14:30 and for ten minutes at 18:00.
    static func day() -> [(mg: Double, wear: Double)] {
        var seed: UInt64 = 0xDA11
        func noise() -> Double {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(seed >> 11) / Double(1 << 53)
        }
        return (0..<17_280).map { i in
            let hour = Double(i) * 5 / 3_600
            var mg: Double
            switch hour {
            case ..<7: mg = 2 + 8 * noise()
            case ..<12: mg = 30 + 120 * noise() + (noise() < 0.05 ? 500 * noise() : 0)
            case ..<19: mg = 60 + 300 * noise() * noise()
            default: mg = 15 + 40 * noise()
            }
            let off = (hour >= 13 && hour < 14.5) || (hour >= 18 && hour < 18 + 1.0 / 6)
            // Values exactly on a band edge would only test the rounding of mg to g.
            if [40.0, 100, 400].contains(mg) { mg += 1e-6 }
            return (mg, off ? 0 : 1)
        }
    }

    @Test func agreesWithScikitDigitalHealth() throws {
        let day = Self.day()
        let input = tempDirectory() + "/epochs.csv"
        try day.map { "\($0.mg),\($0.wear)" }.joined(separator: "\n").write(
            toFile: input, atomically: true, encoding: .utf8)
        var theirs: [String: Double] = [:]
        for line in try python(Self.script, [input]).split(separator: "\n") {
            let parts = line.split(separator: "=")
            if parts.count == 2, let v = Double(parts[1]) { theirs[String(parts[0])] = v }
        }
        try #require(theirs.count == 6, "skdh printed \(theirs)")

        let midnight = 1_767_571_200.0
        let samples = day.enumerated().map { i, e in
            Sample(
                timestamp: midnight + Double(i * 5), uptime: Double(i * 5),
                fields: ["enmo_mg": .double(e.mg), "wear": .double(e.wear), "samples": 500])
        }
        let row = try #require(try DailyTableText(csv: try summarise(samples)).rows.first)
        func ours(_ name: String) -> Double { row[name].flatMap(Double.init) ?? .nan }
        // Ours are written to 3 decimals (mg) and 2 (minutes): half a unit of the last digit.
        #expect(abs(ours("m5_mg") - theirs["wake max acc 300min [g]", default: .nan] * 1000) <= 0.0005)
        #expect(abs(ours("l5_mg") - theirs["wake min acc 300min [g]", default: .nan] * 1000) <= 0.0005)
        let bands = [
            ("minutes_below_40", "wake sed 5s epoch [min]"), ("minutes_40_100", "wake light 5s epoch [min]"),
            ("minutes_100_400", "wake mod 5s epoch [min]"), ("minutes_400_up", "wake vig 5s epoch [min]"),
        ]
        for (mine, skdh) in bands {
            #expect(
                abs(ours(mine) - theirs[skdh, default: .nan]) <= 0.005,
                "\(mine): \(ours(mine)) vs \(theirs[skdh] ?? .nan)")
        }
        // The comparison means something: the day has every band and non-wear.
        #expect(bands.allSatisfy { ours($0.0) > 0 } && row["wear_hours"] == "22.3333")
    }
}
