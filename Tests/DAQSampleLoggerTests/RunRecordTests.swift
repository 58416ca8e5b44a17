import DAQCore
import DAQSHA256
import DAQSampleLogger
import DAQStandard
import DAQTesting
import Foundation
import Synchronization
import Testing

/// The run record (`manifest.json`) tells how every run ended, even when it cannot be written
/// the easy way; `/dev/full` stands in for a full disk (writes to it fail with ENOSPC).
@Suite("Run record", .timeLimit(.minutes(20)))
struct RunRecordTests {
    static let plugins = testPlugins + StandardPlugins.all

    static func pipeline(_ base: String, source: String = "{type: test.samples, count: 10, rate: 10}") -> String {
        """
        name: record
        clock: virtual
        sources: {accel: \(source)}
        sinks:
          log: {type: logger.jsonl, inputs: [accel], directory: "\(base)"}
        """
    }

    static func manifest(_ dir: String) throws -> Fields {
        try parseJSON(dir + "/manifest.json").object
    }

    /// Whether anything, a dangling symlink included, is at `path`.
    static func exists(_ path: String) -> Bool {
        var s = stat()
        return lstat(path, &s) == 0
    }

    /// A missing input is found when the run is built, as its stream is described: nothing has
    /// started, so no run directory is left behind, and the error names the source and the path.
    @Test func aRunWhoseInputIsMissingLeavesNoDirectory() throws {
        let base = tempDirectory()
        let missing = base + "/missing.jsonl"
        let error = #expect(throws: PipelineStartError.self) {
            try PipelineHarness.run(
                yaml: Self.pipeline(base, source: "{type: file, path: \"\(missing)\"}"), plugins: Self.plugins)
        }
        #expect(
            error?.component == "sources.accel" && "\(error?.message ?? "")".contains(missing),
            "\(String(describing: error))")
        #expect(try FileManager.default.contentsOfDirectory(atPath: base) == [])
    }

    @Test func aRunThatCannotStartSaysFailedWithItsReason() throws {
        let base = tempDirectory()
        // A folder where a file belongs: found only when the source opens it, after the logger started.
        let missing = tempDirectory() + "/folder.jsonl"
        try FileManager.default.createDirectory(atPath: missing, withIntermediateDirectories: true)
        #expect(throws: PipelineStartError.self) {
            try PipelineHarness.run(
                yaml: Self.pipeline(base, source: "{type: file, path: \"\(missing)\"}"), plugins: Self.plugins)
        }
        // The logger started before the source failed, so its directory exists: its record says why.
        let dir = try runDirectory(under: base)
        let m = try Self.manifest(dir)
        #expect(m["status"] == .string("failed"))
        let failure = try #require(m["failure"]?.stringValue)
        #expect(failure.contains("sources.accel") && failure.contains(missing), "\(failure)")
        #expect(m["endDate"]?.stringValue != nil)
        #expect(!Self.exists(dir + "/manifest.json.tmp"))
    }

    /// A run builds its directory, then the test breaks the way the final manifest is written.
    func runWithBrokenRecord(_ breakIt: (String) throws -> Void) throws -> (RunResult, [PipelineEvent], String) {
        let base = tempDirectory()
        let registry = try PluginRegistry(Self.plugins)
        let spec = try PipelineLoader(registry: registry).load(text: Self.pipeline(base), file: "record.yaml")
        let events = Mutex<[PipelineEvent]>([])
        let run = try PipelineRun(
            spec: spec, options: RunOptions(flushInterval: 0),
            observers: [ClosureObserver { e in events.withLock { $0.append(e) } }])
        // The logger asks for the same directory when it starts: it gets this one.
        let dir = try run.recorder.directory(under: base)
        #expect(try Self.manifest(dir)["status"] == .string("running"))
        try breakIt(dir)
        try run.start()
        let result = run.wait()
        return (result, events.withLock { $0 }, dir)
    }

    @Test func aManifestThatCannotBeWrittenBesideIsWrittenInPlace() throws {
        let (result, _, dir) = try runWithBrokenRecord { dir in
            try FileManager.default.createSymbolicLink(
                atPath: dir + "/manifest.json.tmp", withDestinationPath: "/dev/full")
        }
        #expect(result.state == .finished)
        #expect(result.recordProblems.isEmpty, "\(result.recordProblems)")
        let m = try Self.manifest(dir)
        #expect(m["status"] == .string("finished"))
        #expect(m["files"]?.array.count == 1)
        #expect(!Self.exists(dir + "/manifest.json.tmp"), "no temporary file is left beside")
    }

    @Test func aManifestThatCannotBeWrittenAtAllIsReported() throws {
        let (result, events, dir) = try runWithBrokenRecord { dir in
            try FileManager.default.createSymbolicLink(
                atPath: dir + "/manifest.json.tmp", withDestinationPath: "/dev/full")
            try FileManager.default.removeItem(atPath: dir + "/manifest.json")
            try FileManager.default.createSymbolicLink(atPath: dir + "/manifest.json", withDestinationPath: "/dev/full")
        }
        let problem = try #require(result.recordProblems.first)
        #expect(problem.contains(dir + "/manifest.json") && problem.contains("No space left on device"), "\(problem)")
        #expect(events.contains(.failed(component: nil, error: DAQError(.recordFailed, problem))))
        #expect(!Self.exists(dir + "/manifest.json.tmp"))
    }

    /// A run directory's lock tells a live run from a killed one; a run that ended lets go.
    @Test func theRecordTellsALiveRunFromAnInterruptedOne() throws {
        let base = tempDirectory()
        let registry = try PluginRegistry(Self.plugins)
        let spec = try PipelineLoader(registry: registry).load(text: Self.pipeline(base), file: "record.yaml")
        let run = try PipelineRun(spec: spec, options: RunOptions(flushInterval: 0))
        let dir = try run.recorder.directory(under: base)
        #expect(try RunRecord(directory: dir).status == .running)

        // What a killed run leaves: the same manifest, and nobody holding the directory.
        let copy = tempDirectory() + "/record-copy"
        try FileManager.default.copyItem(atPath: dir, toPath: copy)
        try Data(#"{"uptime":0.5,"timestamp":0.5,"stepPath":"","seq":1}"#.utf8 + [0x0A]).write(
            to: URL(fileURLWithPath: copy + "/accel.jsonl"))
        let touched = Date(timeIntervalSince1970: 1_800_000_000)
        try FileManager.default.setAttributes([.modificationDate: touched], ofItemAtPath: copy + "/accel.jsonl")
        FileManager.default.createFile(atPath: copy + "/manifest.json.tmp", contents: Data())
        let killed = try RunRecord(directory: copy)
        #expect(killed.status == .interrupted)
        #expect(killed.summary.contains("interrupted"))
        try killed.markInterrupted(
            files: [RunRecorder.OutputFile(path: "accel.jsonl", format: "jsonl", samples: 1, bytes: 52)],
            contentHash: .sha256)
        let m = try Self.manifest(copy)
        #expect(m["status"] == .string("interrupted"))
        #expect(m["endDate"] == .string(ISODate.string(1_800_000_000)))
        #expect(
            m["files"]?.array.first?.object["sha256"]?.stringValue
                == ContentHash.sha256.hex(ofFile: copy + "/accel.jsonl"))
        #expect(try RunRecord(directory: copy).status == .ended("interrupted"))
        #expect(!Self.exists(copy + "/manifest.json.tmp"), "the killed run's temporary manifest is removed")

        try run.start()
        #expect(run.wait().state == .finished)
        #expect(try RunRecord(directory: dir).status == .ended("finished"))
    }
}
