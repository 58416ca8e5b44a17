import DAQCore
import DAQMotion
import DAQTesting
import Foundation
import Testing

/// Samples at `rate` Hz from UTC second `start` for `seconds`, axes from `axes(t)` (t in s
/// from the start); `extra` adds fields.
func accelerometer(
    from start: Double = 1_700_000_000, seconds: Double, rate: Double = 100,
    axes: (Double) -> (Double, Double, Double), extra: (Int) -> Fields = { _ in [:] }
) -> [Sample] {
    let n = Int((seconds * rate).rounded())
    return (0..<n).map { i in
        let t = Double(i) / rate
        let (x, y, z) = axes(t)
        var f: Fields = ["x": .double(x), "y": .double(y), "z": .double(z)]
        for (k, v) in extra(i).pairs { f[k] = v }
        return Sample(timestamp: start + t, uptime: t, fields: f)
    }
}

/// Every sample an epoch transform gives for `samples`, fed in one batch, with the end of input.
func epochs<T: TransformPlugin>(_ type: T.Type, _ config: String = "{}", _ samples: [Sample]) throws -> [Sample] {
    let h = try TransformHarness(type, config: config)
    return try h.push(samples) + h.finish()
}

/// ENMO, MAD and anglez of signals whose values are known in closed form.
@Suite(.timeLimit(.minutes(20))) struct EpochMetricTests {
    @Test func aStillDeviceHasNoENMOAndNoMAD() throws {
        let out = try epochs(
            EnmoTransform.self, "also: [mad, anglez]", accelerometer(seconds: 12) { _ in (0, 0, 1) })
        #expect(out.count == 3)
        for e in out {
            #expect(e.number("enmo_mg") == 0 && e.number("mad_mg") == 0)
            #expect(close(e.number("anglez_deg"), 90, 1e-12))
            #expect(e["wear"] == .double(1), "no sample carries nonwear: all worn")
        }
        #expect(out.map { $0["samples"] } == [.int(500), .int(500), .int(200)])
        #expect(out.map { $0["partial"] } == [.bool(false), .bool(false), .bool(true)], "the end cut the last short")
        #expect(out.map(\.timestamp) == [1_700_000_000, 1_700_000_005, 1_700_000_010], "stamped with each start")
        #expect(out.map(\.uptime) == [0, 5, 10], "at each start on the run clock too: the instant it is stamped with")
    }

    /// |a| = 1 + A·sin(2π·t) sampled at 100 Hz: whole periods per epoch, so the sums have closed
    /// forms. Σₖ max(0, sin(2πk/100)) over a period is cot(π/100), which is what both metrics use.
    @Test func aSineOfKnownAmplitudeGivesTheAnalyticENMOAndMAD() throws {
        let a = 0.5
        let samples = accelerometer(seconds: 10) { t in (0, 0, 1 + a * sin(2 * .pi * t)) }
        let out = try epochs(MadTransform.self, "also: [enmo]", samples)
        let halfWave = 1 / tan(Double.pi / 100) / 100  // mean of max(0, sin) over a sampled period
        #expect(out.count == 2)
        for e in out {
            #expect(close(e.number("enmo_mg"), 1000 * a * halfWave, 1e-9), "\(e.number("enmo_mg"))")
            #expect(close(e.number("mad_mg"), 1000 * a * 2 * halfWave, 1e-9), "\(e.number("mad_mg"))")
            // Continuous time gives A/π and 2A/π: sampling at 100 Hz is within 0.2 mg of those.
            #expect(abs(e.number("enmo_mg") - 1000 * a / .pi) < 0.2)
            #expect(abs(e.number("mad_mg") - 2000 * a / .pi) < 0.2)
        }
    }

    @Test func truncateFalseKeepsNegativeENMO() throws {
        let samples = accelerometer(seconds: 5) { _ in (0, 0.588, 0.784) }  // |a| = 0.98 g
        let kept = try epochs(EnmoTransform.self, "truncate: false", samples)
        let clipped = try epochs(EnmoTransform.self, "{}", samples)
        #expect(close(kept[0].number("enmo_mg"), -20, 1e-9))
        #expect(clipped[0].number("enmo_mg") == 0)
    }

    @Test(arguments: [(30.0, 0.0), (-45.0, 0.0), (60.0, 90.0)])
    func anglezIsTheZAxisAngleFromTheHorizontal(degrees: Double, heading: Double) throws {
        let r = degrees * .pi / 180
        let h = heading * .pi / 180
        let samples = accelerometer(seconds: 5) { _ in (cos(r) * cos(h), cos(r) * sin(h), sin(r)) }
        let out = try epochs(AnglezTransform.self, "{}", samples)
        #expect(close(out[0].number("anglez_deg"), degrees, 1e-9))
        #expect(out[0]["enmo_mg"] == nil && out[0]["mad_mg"] == nil, "only what was asked for")
    }

    @Test func wearIsTheFractionOfSamplesNotFlaggedNonwear() throws {
        // The first epoch: every fourth sample flagged (false counts as worn); the second: half
        // flagged in a field of another name.
        let samples = accelerometer(
            seconds: 10, axes: { _ in (0, 0, 1) },
            extra: { i in
                i < 500 ? ["nonwear": .bool(i % 4 == 0)] : i < 750 ? ["off": .bool(true)] : ["off": .bool(false)]
            })
        let out = try epochs(EnmoTransform.self, "{}", samples)
        #expect(out[0].number("wear") == 0.75)
        #expect(out[1].number("wear") == 1)
        let renamed = try epochs(EnmoTransform.self, "nonwear: off", samples)
        #expect(renamed[0].number("wear") == 1 && renamed[1].number("wear") == 0.5)
    }

    /// A CSV column of flags arrives as text or numbers, not booleans.
    @Test func nonwearFlagsFromACSVCount() throws {
        let flags: [Value] = ["true", "false", "TRUE", "1", "0", .int(1), .int(0), .double(2), .null, "yes"]
        let samples = accelerometer(seconds: 1, axes: { _ in (0, 0, 1) }, extra: { i in ["nonwear": flags[i % 10]] })
        let out = try epochs(EnmoTransform.self, "{}", samples)
        #expect(out[0].number("wear") == 0.5, "true, TRUE, 1, int 1 and 2.0 flag; false, 0, null and yes do not")
    }

    @Test func axisFieldsAreConfigurable() throws {
        let samples = (0..<500).map { i in
            Sample(
                timestamp: 1_700_000_000 + Double(i) / 100, uptime: Double(i) / 100,
                fields: ["ax": 0, "ay": 0, "az": .double(1.5)])
        }
        let out = try epochs(EnmoTransform.self, "x: ax\ny: ay\nz: az", samples)
        #expect(close(out[0].number("enmo_mg"), 500, 1e-9))
    }

    @Test func samplesWithoutAxesAreLeftOutAndReported() throws {
        var samples = accelerometer(seconds: 5) { _ in (0, 0, 2) }
        samples[10].fields["z"] = .null
        samples[20].fields["x"] = .double(.nan)
        let h = try TransformHarness(EnmoTransform.self)
        let out = try h.push(samples) + h.finish()
        #expect(out.count == 1 && out[0]["samples"] == .int(498))
        #expect(close(out[0].number("enmo_mg"), 1000, 1e-9))
        let warnings = h.events.warnings
        #expect(warnings.count == 2)
        #expect(warnings.first?.contains("uptime 0.1 s has no numeric x, y and z: left out of its epoch") == true)
        #expect(warnings.last?.contains("NaN or infinite") == true)
    }

    @Test func markersPassThroughInTimeOrder() throws {
        var samples = accelerometer(seconds: 10) { _ in (0, 0, 1) }
        for i in 200..<samples.count { samples[i].stepPath = "walk" }
        samples.insert(Sample(timestamp: 1_700_000_002, uptime: 2, stepPath: "walk", kind: .marker), at: 200)
        let out = try epochs(EnmoTransform.self, "{}", samples)
        #expect(out.map(\.kind) == [.marker, .data, .data])
        #expect(out[1].stepPath == "" && out[2].stepPath == "walk", "an epoch takes its first sample's step")
    }

    @Test(arguments: [
        ("epoch: 0", "epoch: must be a whole number of seconds from 1 s to 1 h (5, 30s, 1m), found 0.0 s"),
        ("epoch: 2.5", "epoch: must be a whole number of seconds from 1 s to 1 h (5, 30s, 1m), found 2.5 s"),
        ("epoch: 2h", "epoch: must be a whole number of seconds from 1 s to 1 h (5, 30s, 1m), found 7200.0 s"),
        (
            "time_zone: Mars/Olympus",
            "time_zone: unknown time zone 'Mars/Olympus' (an IANA name such as Europe/Berlin, or ±hh:mm)"
        ),
        ("x: \"\"", "x: must name a field"),
    ])
    func badSettingsAreRefusedNamingTheKey(yaml: String, message: String) {
        #expect(throws: (any Error).self) { try TransformHarness(EnmoTransform.self, config: yaml) }
        do {
            _ = try PluginConfigLoader.decode(EpochConfiguration.self, yaml: yaml)
            Issue.record("\(yaml) was accepted")
        } catch let e as ConfigIssue {
            #expect(e.path.joined(separator: ".") + ": " + e.message == message)
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test func anUnknownMetricIsRefused() {
        #expect(throws: DecodingError.self) {
            try PluginConfigLoader.decode(EpochConfiguration.self, yaml: "also: [steps]")
        }
    }

    @Test func fiveThirtyAndSixtySecondEpochsAreAccepted() throws {
        for e in ["5", "30s", "1m", "3600"] {
            #expect(throws: Never.self) { try PluginConfigLoader.decode(EpochConfiguration.self, yaml: "epoch: \(e)") }
        }
    }
}
