import DAQCore
import DAQMotion
import DAQTesting
import Foundation
import Testing

func xyz(_ t: Double, _ x: Double, _ y: Double, _ z: Double) -> Sample {
    Sample(timestamp: 1000 + t, uptime: t, fields: ["x": .double(x), "y": .double(y), "z": .double(z)])
}

@Suite(.timeLimit(.minutes(20))) struct MagnitudeTests {
    @Test func vectorLength() throws {
        let h = try TransformHarness(MagnitudeTransform.self)
        let out = try h.push([xyz(0, 3, 4, 12), xyz(0.1, -1, 0, 0)])
        #expect(out.map { $0.number("magnitude") } == [13, 1])
    }

    @Test func markersAndMissingAxesGiveNull() throws {
        let h = try TransformHarness(MagnitudeTransform.self, config: "x: ax\ny: ay\nz: az\noutput: m")
        let marker = Sample(
            uptime: 0, stepPath: "walk", kind: .marker, fields: ["ax": .null, "ay": .null, "az": .null])
        let out = try h.push([marker, Sample(uptime: 0.1, fields: ["ax": 2, "ay": 3, "az": 6])])
        #expect(out[0]["m"] == .null && out[1]["m"] == .double(7))
    }
}

@Suite(.timeLimit(.minutes(20))) struct FilterTests {
    @Test func lowpassByAlphaCarriesStateAcrossBatches() throws {
        let h = try TransformHarness(LowpassTransform.self, config: "field: x\nalpha: 0.5")
        let first = try h.push([xyz(0, 0, 0, 0), xyz(0.01, 1, 0, 0)])
        let second = try h.push([xyz(0.02, 1, 0, 0), xyz(0.03, 1, 0, 0)])
        #expect((first + second).map { $0.number("x_lp") } == [0, 0.5, 0.75, 0.875])
        #expect(first[1].number("x") == 1, "the input is kept")
    }

    @Test func lowpassByCutoffUsesEachTimeStep() throws {
        let h = try TransformHarness(LowpassTransform.self, config: "field: x\ncutoff_hz: 1")
        let out = try h.push([xyz(0, 0, 0, 0), xyz(0.01, 1, 0, 0), xyz(0.03, 1, 0, 0)])
        let rc = 1 / (2 * Double.pi)
        let a1 = 0.01 / (rc + 0.01)
        let y1 = a1
        let a2 = 0.02 / (rc + 0.02)
        #expect(close(out[1].number("x_lp"), y1, 1e-12))
        #expect(close(out[2].number("x_lp"), y1 + a2 * (1 - y1), 1e-12))
    }

    @Test func highpassRemovesGravity() throws {
        let h = try TransformHarness(HighpassTransform.self, config: "cutoff_hz: 0.5")
        // Gravity on z, and a 5 Hz shake on x.
        let samples = (0..<1000).map { i -> Sample in
            let t = Double(i) / 100
            return xyz(t, sin(2 * .pi * 5 * t), 0, 9.81)
        }
        let out = try h.push(samples)
        let tail = out.suffix(500)
        #expect(tail.allSatisfy { abs($0.number("z_hp")) < 1e-9 }, "a constant is removed")
        let amplitude = tail.map { abs($0.number("x_hp")) }.max() ?? 0
        #expect(amplitude > 0.9 && amplitude < 1.05, "the shake passes: \(amplitude)")
    }

    @Test func highpassByAlphaFollowsTheRecurrence() throws {
        let h = try TransformHarness(HighpassTransform.self, config: "field: z\nalpha: 0.5\nsuffix: \"\"")
        let out = try h.push([xyz(0, 0, 0, 1), xyz(0.1, 0, 0, 3), xyz(0.2, 0, 0, 3)])
        // y0 = 0; y1 = 0.5 · (0 + 3 − 1) = 1; y2 = 0.5 · (1 + 3 − 3) = 0.5; "" replaces the field.
        #expect(out.map { $0.number("z") } == [0, 1, 0.5])
    }

    @Test func markersPassUnfiltered() throws {
        let h = try TransformHarness(LowpassTransform.self, config: "field: x\nalpha: 0.5")
        let marker = Sample(uptime: 0.005, stepPath: "b", kind: .marker, fields: ["x": .null])
        let out = try h.push([xyz(0, 2, 0, 0), marker, xyz(0.01, 4, 0, 0)])
        #expect(out.map(\.kind) == [.data, .marker, .data])
        #expect(out[1]["x_lp"] == .null && out[2].number("x_lp") == 3)
    }

    @Test(arguments: [
        ("field: x", "alpha: give alpha (0 < alpha ≤ 1) or cutoff_hz"),
        ("alpha: 0.5\ncutoff_hz: 2", "cutoff_hz: give either alpha or cutoff_hz, not both"),
        ("alpha: 0", "alpha: must be in (0, 1], found 0.0"),
        ("cutoff_hz: -1", "cutoff_hz: must be greater than 0 Hz, found -1.0"),
        ("alpha: 1\nfields: []", "fields: name at least one field"),
    ])
    func invalidSettings(yaml: String, message: String) {
        #expect(throws: (any Error).self) { try TransformHarness(LowpassTransform.self, config: yaml) }
        do {
            _ = try PluginConfigLoader.decode(LowPassConfiguration.self, yaml: yaml)
        } catch let e as ConfigIssue {
            #expect(e.path.joined(separator: ".") + ": " + e.message == message)
        } catch {
            Issue.record("unexpected \(error)")
        }
    }
}

@Suite(.timeLimit(.minutes(20))) struct ResampleTests {
    @Test func linearSignalOnIrregularTimesLandsOnTheGrid() throws {
        let h = try TransformHarness(ResampleTransform.self, config: "rate: 100")
        // x = 2t + 1 sampled at jittered times: interpolation must give it back exactly.
        let times = [0.0, 0.013, 0.027, 0.031, 0.049, 0.062]
        let out = try h.push(times.map { xyz($0, 2 * $0 + 1, 5, -$0) }) + (try h.finish())
        #expect(out.map { ($0.uptime * 100).rounded() } == [0, 1, 2, 3, 4, 5, 6])
        for s in out {
            #expect(close(s.number("x"), 2 * s.uptime + 1, 1e-12) && close(s.number("z"), -s.uptime, 1e-12))
            #expect(close(s.timestamp, 1000 + s.uptime, 1e-9))
        }
    }

    @Test func gapsLongerThanTheLimitAreReportedNotBridged() throws {
        let h = try TransformHarness(ResampleTransform.self, config: "rate: 10\nmax_gap: 0.5 s")
        let out = try h.push([xyz(0, 0, 0, 0), xyz(0.1, 1, 0, 0), xyz(2.05, 2, 0, 0), xyz(2.15, 3, 0, 0)])
        #expect(out.map { ($0.uptime * 10).rounded() } == [0, 1, 21])
        #expect(h.events.warnings == ["gap of 1.95 s from 0.1 s to 2.05 s not bridged"])
    }

    @Test func integerFieldsAreCarriedUnlessNamed() throws {
        let h = try TransformHarness(ResampleTransform.self, config: "rate: 2")
        let a = Sample(uptime: 0, fields: ["id": .int(7), "v": .double(0)])
        let b = Sample(uptime: 1, fields: ["id": .int(8), "v": .double(10)])
        let out = try h.push([a, b])
        #expect(out.map(\.uptime) == [0, 0.5])
        #expect(out[1]["id"] == .int(7) && out[1]["v"] == .double(5))
    }

    @Test func markersKeepTheirPlaceInTime() throws {
        let h = try TransformHarness(ResampleTransform.self, config: "rate: 10")
        let marker = Sample(uptime: 0.05, stepPath: "b", kind: .marker)
        func step(_ s: Sample, _ path: String) -> Sample {
            var s = s
            s.stepPath = path
            return s
        }
        let out = try h.push([
            step(xyz(0, 0, 0, 0), "a"), marker, step(xyz(0.2, 2, 0, 0), "b"), step(xyz(0.3, 3, 0, 0), "b"),
        ])
        #expect(out.map(\.kind) == [.data, .marker, .data, .data])
        #expect(out.map(\.uptime) == [0, 0.05, 0.1, 0.2])
        #expect(out.map(\.stepPath) == ["a", "b", "b", "b"], "a grid point after the marker is in its step")
    }

    @Test func rateMustBePositive() {
        #expect(throws: ConfigIssue.self) {
            try PluginConfigLoader.decode(ResampleTransform.Configuration.self, yaml: "rate: 0")
        }
    }
}
