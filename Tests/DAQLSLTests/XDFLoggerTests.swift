import DAQCore
import DAQLSL
import DAQStandard
import DAQTesting
import Foundation
import Testing

/// `logger.xdf` files read by pyxdf 1.17.5: the same counts, values (exact), channel labels,
/// units, rates and markers as the run had.
@Suite(.timeLimit(.minutes(10))) struct XDFLoggerTests {
    /// The only file ending in `.xdf` under `directory`'s run folder.
    static func xdfFile(in directory: String) throws -> String {
        let runs = try FileManager.default.contentsOfDirectory(atPath: directory)
        let run = try #require(runs.first, "no run directory in \(directory)")
        let names = try FileManager.default.contentsOfDirectory(atPath: directory + "/" + run)
        let name = try #require(names.first { $0.hasSuffix(".xdf") }, "no .xdf in \(names)")
        return directory + "/" + run + "/" + name
    }

    @Test func pyxdfReadsTheRunsStreamsAndMarkers() throws {
        let out = xdfTemporaryDirectory()
        let yaml = """
            name: xdflog
            clock: virtual
            steps:
              - {path: walk/out, at: 0.5}
              - {path: walk/back, at: 1.5}
            sources:
              sine: {type: generator, rate: 50, count: 100, field: volts}
              noise: {type: generator, signal: noise, rate: 20, count: 40, seed: 3}
            sinks:
              xdf: {type: logger.xdf, inputs: [sine, noise], directory: "\(out)"}
              seen: {type: collect, inputs: [sine, noise]}
            """
        let run = try PipelineHarness.run(yaml: yaml, plugins: StandardPlugins.all + LSLPlugins.all)
        #expect(run.result.state == .finished, "\(run.result)")
        let path = try Self.xdfFile(in: out)
        let theirs = try XDFFixture.pyxdf(path)
        #expect(theirs.map(\.name) == ["noise", "sine", "markers"], "\(theirs.map(\.name))")
        let seen = run.data("seen")
        for stream in theirs where stream.name != "markers" {
            let mine = seen.filter { $0.stream == stream.name }
            #expect(stream.stamps.count == mine.count, "\(stream.name)")
            #expect(stream.rate == (stream.name == "sine" ? 50 : 20))
            #expect(stream.labels == ["seq", stream.name == "sine" ? "volts" : "value"], "\(stream.labels)")
            for (k, s) in mine.enumerated() where k < stream.stamps.count {
                #expect(stream.stamps[k] == s.timestamp, "\(stream.name) \(k)")
                let names = stream.labels
                for (c, name) in names.enumerated() {
                    #expect(stream.values[k][c].doubleValue == s[name]?.doubleValue, "\(stream.name) \(k) \(name)")
                }
            }
        }
        let markers = try #require(theirs.first { $0.name == "markers" })
        let texts = markers.values.compactMap { $0.first?.stringValue }
        #expect(texts.first == "start" && texts.last == "stop walk/back", "\(texts)")
        #expect(texts.contains("step walk/out") && texts.contains("step walk/back"), "\(texts)")
        // A marker is stamped on the data's clock: the run's start plus its run-clock time.
        let start = try #require(seen.first { $0.stream == "sine" })
        let t0 = start.timestamp - start.uptime
        let out1 = try #require(texts.firstIndex(of: "step walk/out"))
        #expect(abs(markers.stamps[out1] - (t0 + 0.5)) < 1e-6)
    }

    /// Labels, units and float32 values of a LabRecorder stream survive xdf.replay → logger.xdf → pyxdf.
    @Test func labelsUnitsAndValuesSurviveAReplay() throws {
        let (recording, _) = try XDFFixture.write()
        let out = xdfTemporaryDirectory()
        let yaml = """
            name: relog
            clock: virtual
            sources:
              eeg: {type: xdf.replay, path: "\(recording)", streams: [EEG]}
            sinks:
              xdf: {type: logger.xdf, inputs: [eeg], directory: "\(out)"}
            """
        let run = try PipelineHarness.run(yaml: yaml, plugins: LSLPlugins.all)
        #expect(run.result.state == .finished, "\(run.result)")
        let theirs = try XDFFixture.pyxdf(try Self.xdfFile(in: out))
        let original = try #require(try XDFFixture.pyxdf(recording).first { $0.name == "EEG" })
        let eeg = try #require(theirs.first { $0.name == "eeg" })
        #expect(eeg.labels == ["Fz", "Cz", "Pz"] && eeg.units == ["microvolts", "microvolts", "microvolts"])
        #expect(eeg.rate == 100 && eeg.values.count == original.values.count)
        #expect(eeg.values == original.values)
    }
}
