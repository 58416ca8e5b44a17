import DAQCore
import DAQTesting
import Foundation
import Testing

@testable import DAQLSL

/// What is refused before anything runs: a missing liblsl, a clock LSL cannot run on, a source
/// that names no stream. No network is touched: these only load and validate.
@Suite("lsl configuration")
struct LSLConfigurationTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// `daq validate` with the pipeline text `yaml`, and `environment` set.
    static func validate(_ yaml: String, environment: [String: String] = [:]) throws -> ChildOutput {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("daq-lsl-\(UUID().uuidString).yaml")
        try yaml.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        return try Process.runToEnd(
            ServiceProcess.builtExecutable("daq"), ["validate", file.path], environment: environment, timeout: 60)
    }

    static let source = """
        name: t
        clock: CLOCK
        sources:
          eeg: { type: lsl, name: EEG }
        sinks:
          out: { type: null, inputs: [eeg] }
        """

    @Test func aMissingLibraryIsAConfigurationErrorSayingHowToGetOne() throws {
        let r = try Self.validate(
            Self.source.replacingOccurrences(of: "CLOCK", with: "realtime"),
            environment: ["LSL_LIB": "/nonexistent/liblsl.so"])
        #expect(r.status != 0)
        #expect(r.errors.contains("sources.eeg"), "\(r.errors)")
        for way in ["LSL_LIB=", "pip install pylsl", "pylsl/lib/liblsl.so", "liblsl.so.2", "/nonexistent/liblsl.so"] {
            #expect(r.errors.contains(way), "\(way) not in: \(r.errors)")
        }
    }

    @Test func theLibraryIsFoundInPylslsWheelWithoutLSLLib() throws {
        var environment = ProcessInfo.processInfo.environment
        environment["LSL_LIB"] = nil
        let found = LSLLibrary.pylslCopies(environment: environment)
        #expect(found.contains(try LSLNamespace.pylslLibrary()), "\(found)")
        let loaded = try LSLLibrary.load(environment: environment).get()
        #expect(loaded.version >= 114)
    }

    @Test(arguments: ["replay", "virtual"])
    func theSourceTakesOnlyTheRealtimeClock(_ clock: String) throws {
        let r = try Self.validate(Self.source.replacingOccurrences(of: "CLOCK", with: clock))
        #expect(r.status != 0)
        #expect(r.errors.contains("only the realtime clock"), "\(r.errors)")
    }

    @Test func theSinkRefusesTheVirtualClockAndSaysToReplay() throws {
        let r = try Self.validate(
            """
            name: t
            clock: virtual
            sources:
              walk: { type: motion.replay, path: \(Self.root.path)/recordings/walk.csv }
            sinks:
              out: { type: lsl, inputs: [walk] }
            """)
        #expect(r.status != 0)
        #expect(r.errors.contains("sinks.out") && r.errors.contains("clock: replay"), "\(r.errors)")
    }

    @Test func aSourceMustNameItsStream() throws {
        let r = try Self.validate(
            Self.source.replacingOccurrences(of: "CLOCK", with: "realtime").replacingOccurrences(
                of: "name: EEG", with: "timeout: 5"))
        #expect(r.status != 0)
        #expect(r.errors.contains("give name, stream_type, source_id or query"), "\(r.errors)")
    }

    @Test func queriesCombineByAndAndQuoteWhatHoldsAQuote() throws {
        var s = LSLSourceSettings()
        s.name = "EEG"
        s.streamType = "it's"
        s.query = "hostname='lab3'"
        #expect(s.predicate == "(hostname='lab3') and name='EEG' and type=\"it's\"")
    }

    @Test func theSourceIDIsStableAndDiffersByStream() {
        let a = LSLOutletLayout.stableID("p", "c", "s")
        #expect(a == LSLOutletLayout.stableID("p", "c", "s"))
        #expect(a != LSLOutletLayout.stableID("p", "c", "t"))
        #expect(a.hasPrefix("daq-") && a.count == 20)
    }

    @Test(arguments: ["lsl-outlet.yaml", "lsl-inlet.yaml"])
    func theShippedPipelinesValidate(_ file: String) throws {
        let r = try Process.runToEnd(
            ServiceProcess.builtExecutable("daq"),
            ["validate", Self.root.appendingPathComponent("pipelines/\(file)").path],
            directory: Self.root.path, timeout: 60)
        #expect(r.status == 0, "\(r.errors)")
    }
}
