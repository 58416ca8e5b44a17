import DAQCore
import DAQLSL
import DAQTesting
import Foundation
import Testing

/// `xdf.replay` against pyxdf 1.17.5 (`synchronize_clocks=True, handle_clock_resets=True,
/// dejitter_timestamps=False`) on files written from the specification by
/// `Tests/Fixtures/xdf/write_xdf.py`: a float32 stream with a drifting clock and an outlier
/// offset, a double64 stream whose clock is reset, an int16 stream, a text marker stream and an
/// empty stream. Every stream, every sample: values exactly, time stamps to 1e-9 relative.
@Suite(.timeLimit(.minutes(10))) struct XDFReplayCrossCheckTests {
    /// Compares the replay of `path` with pyxdf's reading of it. The files have no date, so
    /// timestamps count from the earliest synchronised time stamp (``XDFTimeOrigin`` rule 3).
    func expectAgreement(_ path: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let theirs = try XDFFixture.pyxdf(path)
        let (ours, _, descriptor, _) = try XDFFixture.replay(path)
        let earliest = theirs.compactMap(\.stamps.first).min() ?? 0
        for stream in theirs {
            let mine = ours.filter { $0["stream_name"]?.stringValue == stream.name }
            #expect(
                mine.count == stream.stamps.count,
                "\(stream.name): \(mine.count) samples, pyxdf \(stream.stamps.count)", sourceLocation: sourceLocation)
            var bad = 0
            for (k, (s, t)) in zip(mine, stream.stamps).enumerated() {
                let expected = t - earliest
                let timeOK = abs(s.timestamp - expected) <= 1e-9 * max(1, abs(t))
                let names = names(of: stream)
                let valuesOK = zip(names, stream.values[k]).allSatisfy { name, v in s[name] == v }
                if !(timeOK && valuesOK) {
                    bad += 1
                    if bad <= 3 {
                        Issue.record(
                            "\(stream.name) sample \(k): here t=\(s.timestamp) \(names.map { s[$0] ?? .null }); pyxdf t=\(expected) \(stream.values[k])",
                            sourceLocation: sourceLocation)
                    }
                }
            }
            #expect(bad == 0, "\(stream.name): \(bad) samples differ", sourceLocation: sourceLocation)
            for (label, unit) in zip(stream.labels, stream.units) where !label.isEmpty {
                #expect(
                    descriptor.field(label)?.unit == (unit.isEmpty ? nil : unit), "\(label)",
                    sourceLocation: sourceLocation)
            }
        }
        #expect(ours.count == theirs.reduce(0) { $0 + $1.stamps.count }, sourceLocation: sourceLocation)
        // Merged in time order.
        let backwards = zip(ours, ours.dropFirst()).filter { $1.timestamp < $0.timestamp }.count
        #expect(
            backwards == 0, "\(backwards) samples come before the one ahead of them", sourceLocation: sourceLocation)
    }

    /// The fields a pyxdf stream's channels are replayed as.
    func names(of stream: XDFFixture.PyStream) -> [String] {
        if stream.format == "string" && (stream.values.first?.count ?? 1) == 1 { return ["marker"] }
        let count = stream.values.first?.count ?? stream.labels.count
        return (0..<count).map {
            $0 < stream.labels.count && !stream.labels[$0].isEmpty ? stream.labels[$0] : "ch\($0 + 1)"
        }
    }

    @Test func everyStreamAgreesWithPyxdf() throws {
        let (path, _) = try XDFFixture.write()
        try expectAgreement(path)
        let (ours, events, descriptor, _) = try XDFFixture.replay(path)
        // The clock reset is there to be handled: the second half of Accel is 30 s ahead on its own clock.
        let accel = ours.filter { $0["stream_name"] == .string("Accel") }
        #expect(accel.count == 2000)
        #expect(
            events.xdfNotices.contains { $0.contains("'Empty'") && $0.contains("has no samples") },
            "\(events.xdfNotices)")
        #expect(events.xdfWarnings.isEmpty, "\(events.xdfWarnings)")
        #expect(descriptor.timeBase == .elapsed)
        #expect(descriptor.field("Fz")?.type == .double && descriptor.field("Fz")?.unit == "microvolts")
        #expect(descriptor.field("count")?.type == .int)
        #expect(descriptor.field("ch1")?.type == .double && descriptor.field("ch2") != nil)
        #expect(descriptor.field("marker")?.type == .string)
        #expect(descriptor.metadata["EEG.source_id"] == "src-1" && descriptor.metadata["EEG.hostname"] == "lab-pc")
        let markers = ours.filter { $0["stream_name"] == .string("Markers") }
        #expect(markers.allSatisfy { $0.kind == .event } && markers.count == 6)
        let texts = markers.map { $0["marker"]?.stringValue ?? "" }
        #expect(texts.contains("trial 1 <a&b>") && texts.contains("Übung ✓"), "\(texts)")
    }

    @Test func aCompressedFileAgreesWithPyxdf() throws {
        let (path, _) = try XDFFixture.write("rec.xdf.gz", ["--gzip"])
        try expectAgreement(path)
    }

    /// A crashed LabRecorder leaves no footers: the file is read whole, and said to be incomplete.
    @Test func aFileWithoutFootersIsReadAndSaidToBeIncomplete() throws {
        let (path, _) = try XDFFixture.write("rec.xdf", ["--no-footers"])
        try expectAgreement(path)
        let (_, events, _, summary) = try XDFFixture.replay(path)
        #expect(
            events.xdfWarnings.contains { $0.contains("incomplete") && $0.contains("'EEG'") }, "\(events.xdfWarnings)")
        #expect(summary?["complete"] == .bool(false), "\(String(describing: summary))")
    }

    /// A file cut inside a Samples chunk: with `on_bad_chunk: skip` the replay reads what pyxdf
    /// reads and says where the damage is; with `fail` it replays what comes before it and fails
    /// naming the chunk and its byte offset.
    @Test func aTruncatedFileIsReadToItsDamageAndTheDamageIsNamed() throws {
        let (path, said) = try XDFFixture.write("rec.xdf", ["--truncate"])
        // "chunks N damaged_chunk K at OFFSET"
        let words = said.split(whereSeparator: \.isWhitespace)
        let chunk = try #require(Int(words[3]))
        let offset = try #require(Int(words[5]))
        try expectAgreementSkipping(path)
        let (_, events, _, _) = try XDFFixture.replay(path, "on_bad_chunk: skip")
        #expect(
            events.xdfWarnings.contains { $0.contains("chunk \(chunk) at byte \(offset)") }, "\(events.xdfWarnings)")

        let h = try SourceHarness(XDFReplaySource.self, config: "path: \"\(path)\"", name: "xdf")
        var got = 0
        var failure: (any Error)?
        while failure == nil {
            var b = Batch(stream: "xdf")
            do {
                let status = try h.source.read(into: &b, limit: 4096, context: h.context)
                got += b.count
                if status == .finished { break }
            } catch {
                got += b.count
                failure = error
            }
        }
        let message = "\(failure.map { "\($0)" } ?? "no failure")"
        #expect(message.contains("chunk \(chunk) at byte \(offset)") && message.contains("Samples"), "\(message)")
        #expect(got > 8000, "the samples before the damage go out first: \(got)")
    }

    /// Damage half way (a NumLengthBytes of 3): pyxdf and the replay both go on after the next
    /// Boundary chunk, and read the same samples; the replay names the chunk and its offset.
    @Test func damageHalfWayIsNamedAndReadPastAsPyxdfDoes() throws {
        let (path, said) = try XDFFixture.write("rec.xdf", ["--corrupt"])
        let words = said.split(whereSeparator: \.isWhitespace)
        let chunk = try #require(Int(words[3]))
        let offset = try #require(Int(words[5]))
        try expectAgreementSkipping(path)
        let (ours, events, _, summary) = try XDFFixture.replay(path, "on_bad_chunk: skip")
        #expect(ours.count > 4000 && ours.count < 8606, "\(ours.count)")
        let warning = events.xdfWarnings.first { $0.contains("chunk \(chunk) at byte \(offset)") }
        #expect(warning?.contains("NumLengthBytes must be 1, 4 or 8, found 3") == true, "\(events.xdfWarnings)")
        #expect(warning?.contains("read on after the next boundary chunk") == true)
        #expect(summary?["complete"] == .bool(false))
    }

    func expectAgreementSkipping(_ path: String) throws {
        let theirs = try XDFFixture.pyxdf(path)
        let (ours, _, _, _) = try XDFFixture.replay(path, "on_bad_chunk: skip")
        let earliest = theirs.compactMap(\.stamps.first).min() ?? 0
        for stream in theirs {
            let mine = ours.filter { $0["stream_name"]?.stringValue == stream.name }
            #expect(
                mine.count == stream.stamps.count, "\(stream.name): \(mine.count) here, \(stream.stamps.count) in pyxdf"
            )
        }
    }

    /// `streams:` picks streams by name, and a name the file lacks is an error listing those it has.
    @Test func streamsPicksByNameAndSaysWhichExist() throws {
        let (path, _) = try XDFFixture.write()
        let (ours, _, descriptor, _) = try XDFFixture.replay(path, "streams: [Counter]")
        #expect(ours.count == 600 && ours.allSatisfy { $0["stream_name"] == .string("Counter") })
        #expect(descriptor.rate == .hz(10))
        #expect(throws: (any Error).self) { try XDFFixture.replay(path, "streams: [EKG]") }
        do {
            _ = try XDFFixture.replay(path, "streams: [EKG]")
        } catch {
            #expect("\(error)".contains("no stream named 'EKG'") && "\(error)".contains("'EEG', 'Accel'"), "\(error)")
        }
    }

    /// LabRecorder's header date dates the earliest time stamp; intervals are kept exactly.
    @Test func theHeaderDateDatesTheEarliestTimeStamp() throws {
        let (path, _) = try XDFFixture.write("rec.xdf", ["--datetime", "2026-03-01T10:00:00+0100"])
        let (ours, _, descriptor, _) = try XDFFixture.replay(path)
        let theirs = try XDFFixture.pyxdf(path)
        let earliest = theirs.compactMap(\.stamps.first).min()!
        #expect(descriptor.timeBase == .recorded && descriptor.timeZone == "+01:00")
        let start = 1_772_355_600.0  // 2026-03-01T09:00:00Z
        #expect(abs((ours.first?.timestamp ?? 0) - start) < 1e-6)
        let eeg = theirs.first { $0.name == "EEG" }!
        let mine = ours.filter { $0["stream_name"] == .string("EEG") }
        for (s, t) in zip(mine, eeg.stamps).prefix(500) {
            #expect(abs((s.timestamp - start) - (t - earliest)) < 1e-6)
        }
    }
}
