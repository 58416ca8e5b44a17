import DAQCore
import DAQMotion
import DAQTesting
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Each bad input named by the recordings issue: a clear message with the file and, where a
/// line is at fault, its number.
@Suite(.timeLimit(.minutes(20))) struct ReplayBadInputTests {
    func startFailure(_ path: String, _ extra: String = "") -> String {
        do {
            let h = try replay(path, extra)
            return replayUntilFailure(h).error.map { "\($0)" } ?? "no error"
        } catch {
            return "\(error)"
        }
    }

    /// A corrupt time far past Int64's range (the fuzzer's 1.1e46) is named, not a trap.
    @Test func aTimePastEveryUnitIsReportedAsItIs() throws {
        let path = recording("huge.csv", "t,x,y,z\n11111111111111111111111111111111111111111111111,0,0,1\n2e46,0,0,1\n")
        let h = try replay(path, "on_bad_row: skip")
        _ = replayUntilFailure(h)
        #expect(h.events.notices.contains { $0.contains("values near 1.111111111111111e+46 look like nanoseconds") })
    }

    @Test func missingFile() {
        let path = tempDirectory() + "/nope.csv"
        #expect(startFailure(path) == "\(path): No such file or directory")
    }

    @Test func directory() {
        let path = tempDirectory()
        #expect(startFailure(path) == "\(path): is a directory")
    }

    /// A file its mode keeps the user from: `daq run` as an unprivileged user (root reads any
    /// file) fails to start and names the file.
    @Test func unreadableFile() throws {
        let path = recording("locked.csv", "t,x,y,z\n0,1,1,1\n")
        #expect(chmod(path, 0) == 0)
        let pipeline = (path as NSString).deletingLastPathComponent + "/locked.yaml"
        try """
        name: locked
        clock: virtual
        sources: {accel: {type: motion.replay, path: "\(path)"}}
        sinks: {out: {type: "null", inputs: [accel]}}
        """.write(toFile: pipeline, atomically: true, encoding: .utf8)
        let r = try Unprivileged.run(
            ServiceProcess.builtExecutable("daq"), ["run", pipeline, "--status", "never", "--no-control"])
        #expect(r.status == 1, "\(r.errors)")
        #expect(r.errors.contains("\(path): Permission denied"), "\(r.errors)")
    }

    @Test func emptyFile() {
        let path = recording("empty.csv", "")
        #expect(startFailure(path) == "\(path):1: the file is empty")
    }

    @Test func headerWithoutAxes() {
        let path = recording("noaxes.csv", "time,a,b,c\n0,1,2,3\n")
        #expect(
            startFailure(path)
                == "\(path):2: no header with time, x, y and z columns; name them with columns: {time: …, x: …, y: …, z: …}"
        )
    }

    @Test func headerWithoutAxesWhenSkipLinesSaysWhere() {
        let path = recording("noaxes.csv", "meta\ntime,a,b,c\n0,1,2,3\n")
        #expect(
            startFailure(path, "skip_lines: 1").hasPrefix(
                "\(path):2: expected a header naming the time, x, y and z columns, found 'time,a,b,c'"))
    }

    @Test func nonNumericCell() {
        let path = recording("text.csv", "t,x,y,z\n0,1,1,1\n0.1,1,NaNish,1\n")
        #expect(startFailure(path) == "\(path):3: y is not a number: 'NaNish'")
    }

    @Test func truncatedLastLine() {
        let path = recording("cut.csv", "t,x,y,z\n0,1,1,1\n0.1,1,1,1\n0.2,1,")
        #expect(
            startFailure(path) == "\(path):4: expected 4 cells as in the header, found 3 (the last line is cut off)")
    }

    @Test func truncatedLastLineWithAllCellsIsKept() throws {
        // A last line without its newline but with every cell is a whole row.
        let (samples, _) = try replayAll(recording("cut.csv", "t,x,y,z\n0,1,1,1\n0.1,2,2,2"))
        #expect(samples.map { $0.number("x") } == [1, 2])
    }

    /// A file past 2 GB is streamed: the rows before its garbage tail come through, and the
    /// run stops at the tail with its line number instead of reading 2 GB into memory.
    @Test func twoGigabyteFileIsStreamedNotLoaded() throws {
        let path = recording("huge.csv", "t,x,y,z\n0,1,1,1\n0.1,2,2,2\n0.2,3,3,3\n")
        #expect(truncate(path, (2 << 30) + 4096) == 0)  // sparse: no disk is used for the zeros
        let (samples, error) = replayUntilFailure(try replay(path))
        #expect(samples.count == 3)
        #expect("\(try #require(error))" == "\(path): line 5 is longer than 16777216 bytes without a newline")
    }

    @Test func badJSONRootNamesTheFormat() {
        let path = recording("notalog.json", "\"just a string\"\n")
        #expect(
            startFailure(path) == "\(path):1: expected a SageResearch log: an object with 'items' or a list of items")
    }
}
