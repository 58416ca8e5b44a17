import DAQCore
import DAQMotion
import DAQTesting
import Foundation
import Testing

/// `motion.nonwear` on recordings with non-wear put in: the device lying flat and still, with a
/// few mg of noise, for spans that do not fall on step boundaries.
@Suite(.timeLimit(.minutes(20))) struct NonwearDetectionTests {
    static let step = 900.0

    /// Eight hours of a wrist in a `.cwa` written by DAQTesting (AX3, 12.5 Hz), still from 1:10
    /// to 3:40 and from 5:05 to 6:35, read by motion.replay.
    @Test(arguments: ["flag", "drop"])
    func stillSpansInADeviceFileAreFoundToTheStep(mode: String) throws {
        let wrist = Wrist(still: [4_200..<13_200, 18_300..<23_700], rate: 12.5)
        var w = CWAWriter()
        w.rate = 12.5
        w.seconds = 8 * 3_600
        w.counts = { wrist.counts($0) }
        let path = tempDirectory() + "/wrist.cwa"
        try w.write(to: path)
        let yaml = """
            name: nonwear
            clock: virtual
            sources:
              accel: {type: motion.replay, path: "\(path)"}
            transforms:
              worn: {type: motion.nonwear, inputs: [accel], mode: \(mode)}
            sinks:
              out: {type: collect, inputs: [worn]}
            """
        let out = try PipelineHarness.run(yaml: yaml, plugins: MotionPlugins.all).data("out")
        let rows = out.filter { $0.kind == .data }
        let spans = out.compactMap(FoundSpan.init)
        let origin = w.time(0)
        try #require(spans.count == 2, "\(spans)")
        for (found, put) in zip(spans, wrist.still) {
            #expect(abs(found.start - (origin + put.lowerBound)) < Self.step, "\(found) for \(put)")
            #expect(abs(found.end - (origin + put.upperBound)) < Self.step, "\(found) for \(put)")
            // GGIR's placement: windows every step from the first sample, each flagging all it covers.
            #expect(abs(found.start - (origin + (put.lowerBound / Self.step).rounded(.up) * Self.step)) < 1e-3)
            #expect(abs(found.end - (origin + (put.upperBound / Self.step).rounded(.down) * Self.step)) < 1e-3)
        }
        func inSpan(_ t: Double) -> Bool { spans.contains { t >= $0.start && t < $0.end } }
        let flagged = rows.filter { inSpan($0.timestamp) }.count
        if mode == "flag" {
            #expect(rows.count == w.sampleCount)
            #expect(spans.map(\.samples).reduce(0, +) == flagged)
            let wrong = rows.filter { $0["nonwear"] != .bool(inSpan($0.timestamp)) }
            #expect(
                wrong.isEmpty, "\(wrong.count) samples flagged wrongly, the first at \(wrong.first?.timestamp ?? 0)")
        } else {
            #expect(flagged == 0, "drop leaves the spans' samples out")
            #expect(rows.count + spans.map(\.samples).reduce(0, +) == w.sampleCount)
            #expect(rows.allSatisfy { $0["nonwear"] == nil }, "drop adds no field")
        }
        // Each event follows its span's last sample and comes before the next one.
        for span in spans {
            let at = try #require(out.firstIndex { FoundSpan($0) == span })
            #expect(out[..<at].last { $0.kind == .data }.map { $0.timestamp < span.end } ?? false)
            #expect(out[(at + 1)...].first { $0.kind == .data }.map { $0.timestamp >= span.end } ?? true)
        }
    }

    /// motion.enmo's epochs read the flags: an epoch in a span has wear 0, one outside it 1.
    @Test func epochsDownstreamCountTheFlagsAsWear() throws {
        // From 22:00 UTC, so the quarter hours of the epochs are the steps.
        let wrist = Wrist(still: [3_000..<9_000], rate: 2)
        let flagged = try nonwear("{}", wrist.samples(from: 1_699_999_200, seconds: 4 * 3_600))
        let epochs = try TransformHarness(EnmoTransform.self, config: "epoch: 15m")
        let out = try epochs.push(flagged.filter { $0.kind == .data }) + epochs.finish()
        try #require(out.count == 16)
        // The span is [1:00, 2:30): the fifth to tenth quarter hours.
        #expect(
            out.map { $0.number("wear") } == Array(repeating: 1, count: 4) + Array(repeating: 0, count: 6)
                + Array(repeating: 1, count: 6))
    }

    /// A sleeping wrist: z lies still, x and y drift by tens of mg (SD over 13 mg, range under
    /// 150 mg). One still axis is not enough, so it is worn; with `axes: 1` it is not.
    @Test func aSleepingWristIsWornUnlessOneStillAxisSuffices() throws {
        let samples = (0..<(4 * 3_600 * 2)).map { i in
            let t = Double(i) / 2
            return Sample(
                timestamp: 1_700_000_000 + t, uptime: t,
                fields: [
                    "x": .double(0.05 * sin(2 * .pi * t / 600) + 0.004 * noise(i, 0)),
                    "y": .double(0.03 * cos(2 * .pi * t / 900) + 0.004 * noise(i, 1)),
                    "z": .double(1 + 0.004 * noise(i, 2)),
                ])
        }
        let worn = try nonwear("{}", samples)
        #expect(worn.compactMap(FoundSpan.init).isEmpty)
        #expect(worn.filter { $0.kind == .data }.count == samples.count)
        #expect(worn.allSatisfy { $0.kind != .data || $0["nonwear"] == .bool(false) })
        let oneAxis = try nonwear("axes: 1", samples).compactMap(FoundSpan.init)
        #expect(oneAxis == [FoundSpan.make(1_700_000_000, 1_700_000_000 + 4 * 3_600 - 0.5, samples.count)])
    }

    /// Steps follow the samples' recorded times: the same recording arriving a thousand times
    /// faster on the run clock gives the same spans, and a gap in the recording is a gap in time.
    @Test func spansFollowTheRecordingsTimeNotItsArrival() throws {
        let wrist = Wrist(still: [3_000..<9_000], rate: 2)
        let real = try nonwear("{}", wrist.samples(seconds: 4 * 3_600)).compactMap(FoundSpan.init)
        let fast = try nonwear("{}", wrist.samples(seconds: 4 * 3_600, pace: 0.001)).compactMap(FoundSpan.init)
        #expect(real == [FoundSpan.make(1_700_003_600, 1_700_009_000, 2 * 5_400)])
        #expect(fast == real)
        // Five hours missing after the first: the still part after the gap is found from its own steps.
        var gapped = Wrist(still: [0..<3_600 * 3], rate: 2).samples(from: 1_700_018_000, seconds: 4 * 3_600)
        gapped.insert(contentsOf: Wrist(still: [], rate: 2).samples(seconds: 3_600), at: 0)
        let spans = try nonwear("{}", gapped).compactMap(FoundSpan.init)
        #expect(spans == [FoundSpan.make(1_700_018_000, 1_700_018_000 + 3 * 3_600, 3 * 3_600 * 2)], "\(spans)")
    }

    /// At the end of input the windows left are judged on the samples they have, as GGIR cuts its
    /// last windows at the end of the data; none starts in the last step, which the end cut short.
    @Test func theEndOfInputJudgesTheWindowsItCutShort() throws {
        // Worn for 2 h, then still for the last 50 min: shorter than a window, found all the same.
        let tail = Wrist(still: [7_200..<10_200], rate: 2).samples(seconds: 10_200)
        let spans = try nonwear("{}", tail).compactMap(FoundSpan.init)
        #expect(spans == [FoundSpan.make(1_700_007_200, 1_700_010_199.5, 3_000 * 2)], "\(spans)")
        // A recording shorter than a step has no window to judge.
        let short = try nonwear("{}", Wrist(still: [0..<800], rate: 2).samples(seconds: 800))
        #expect(short.compactMap(FoundSpan.init).isEmpty)
        #expect(short.filter { $0["nonwear"] == .bool(false) }.count == 1_600)
    }

    /// Markers pass through where they came, with no field; samples without axes are flagged with
    /// their step, counted in no window, and reported.
    @Test func markersPassAndSamplesWithoutAxesAreReported() throws {
        var samples = Wrist(still: [0..<7_200], rate: 1).samples(seconds: 7_200)
        samples[100] = Sample(timestamp: samples[100].timestamp, uptime: 100, fields: ["x": .string("n/a")])
        samples.insert(Sample(uptime: 50, stepPath: "walk", kind: .marker), at: 50)
        let h = try TransformHarness(NonwearTransform.self, config: "{}")
        let out = try h.push(samples) + h.finish()
        #expect(out.filter { $0.kind != .event }.map(\.uptime) == samples.map(\.uptime))
        #expect(out.first { $0.kind == .marker }?["nonwear"] == nil)
        #expect(out.first { $0.uptime == 100 && $0.kind == .data }?["nonwear"] == .bool(true))
        #expect(
            h.events.warnings == [
                "the sample at uptime 100.0 s has no finite x, y and z: it is flagged with its step but counts in no window"
            ])
    }

    @Test(arguments: [
        ("step: 2h", "step: must not be longer than window (3600.0 s), found 7200.0 s"),
        ("step: 0", "step: must be more than 0 s, found 0.0 s"),
        ("window: 10m", "window: must be at least one step (900.0 s), found 600.0 s"),
        ("window: 50m", "window: must be a whole number of steps (900.0 s), found 3000.0 s"),
        ("step: 7m", "step: must divide window (3600.0 s) into whole steps, found 420.0 s"),
        ("window: 2d", "window: expected"),
        (
            "window: 25h",
            "window: must be more than 0 s and at most 24 h (the stage holds a window of samples), found 90000.0 s"
        ),
        ("sd_mg: 0", "sd_mg: must be more than 0 mg, found 0.0"),
        ("range_mg: -1", "range_mg: must be more than 0 mg, found -1.0"),
        ("axes: 4", "axes: must be 1, 2 or 3, found 4"),
        ("field: \"\"", "field: must name a field"),
        ("z: \"\"", "z: must name a field"),
    ])
    func badSettingsAreRefusedNamingTheKey(yaml: String, message: String) {
        #expect(throws: (any Error).self) { try TransformHarness(NonwearTransform.self, config: yaml) }
        do {
            _ = try PluginConfigLoader.decode(NonwearConfiguration.self, yaml: yaml)
            Issue.record("\(yaml) was accepted")
        } catch let e as ConfigIssue {
            #expect(e.path.joined(separator: ".") + ": " + e.message == message)
        } catch {
            #expect(message.hasSuffix("expected"), "unexpected \(error)")
        }
    }

    /// A bad key in a pipeline is reported at its line and column.
    @Test func aPipelineNamesTheLineOfABadKey() throws {
        let yaml = """
            name: nonwear
            sources:
              accel: {type: motion.replay, path: wrist.csv}
            transforms:
              worn:
                type: motion.nonwear
                inputs: [accel]
                step: 2h
            sinks:
              out: {type: collect, inputs: [worn]}
            """
        let registry = try PluginRegistry(MotionPlugins.all + [.collect])
        do {
            _ = try PipelineLoader(registry: registry, environment: [:]).load(text: yaml, file: "nonwear.yaml")
            Issue.record("loaded")
        } catch {
            let d = try #require(error.diagnostics.first)
            #expect(d.description.hasPrefix("nonwear.yaml:8:"), "\(d)")
            #expect(
                d.description.contains(
                    "error: transforms.worn.step: must not be longer than window (3600.0 s), found 7200.0 s"), "\(d)")
        }
    }
}

extension FoundSpan {
    static func make(_ start: Double, _ end: Double, _ samples: Int) -> FoundSpan {
        FoundSpan(
            Sample(
                uptime: 0, kind: .event,
                fields: [
                    "event": .string("motion.nonwear"), "start": .double(start), "end": .double(end),
                    "samples": .int(Int64(samples)),
                ]))!
    }
}
