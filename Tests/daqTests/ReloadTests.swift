import Foundation
import Testing

/// Reloading a running pipeline: a transform changed mid-stream, refusals, invalid files.
@Suite("hot reload", .timeLimit(.minutes(20)))
struct ReloadTests {
    typealias Running = ControlSocketTests.Running

    /// Sends `values` and waits until the logger has flushed `expected` data samples in all.
    static func feed(_ p: Running, _ values: [Int], expecting expected: Int) throws -> [Int] {
        for v in values { p.run.send("{\"v\": \(v)}\n") }
        let deadline = Date(timeIntervalSinceNow: 30)
        var seen: [Int] = []
        repeat {
            seen = try Self.logged(p)
            if seen.count >= expected { break }
            usleep(20_000)  // between looks at the file; the check below is on its content
        } while Date() < deadline
        return seen
    }

    static func logged(_ p: Running) throws -> [Int] {
        guard let dir = try? FileManager.default.contentsOfDirectory(atPath: p.output).first,
            let text = try? String(contentsOfFile: "\(p.output)/\(dir)/pos.jsonl", encoding: .utf8)
        else { return [] }
        return text.split(separator: "\n").compactMap {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?["v"] as? Int
        }
    }

    static func edit(_ p: Running, _ from: String, _ to: String) throws {
        let text = try String(contentsOfFile: p.file, encoding: .utf8)
        try text.replacingOccurrences(of: from, with: to).write(toFile: p.file, atomically: true, encoding: .utf8)
    }

    @Test func aChangedTransformIsReplacedMidStreamAndNoSampleIsLost() throws {
        let p = try Running()
        #expect(try Self.feed(p, [0, 1, 2, 3, 4], expecting: 4) == [1, 2, 3, 4])
        try Self.edit(p, "v > 0", "v > 2")
        let r = try DAQBinary.run(["control", p.name, "reload"])
        #expect(r.status == 0, "\(r.err)")
        #expect(p.run.line { $0.contains("reloaded") && $0.contains("replaced pos") } != nil, "\(p.run.stderr)")
        #expect(try Self.feed(p, [0, 1, 2, 3, 4], expecting: 6) == [1, 2, 3, 4, 3, 4])
        #expect(p.run.finish() == 0, "\(p.run.stderr)")
        let summary = p.run.stderr
        #expect(summary.contains("in     stdin"), "\(summary)")
        // The source's 10 samples all reached the filter across the reload.
        #expect(
            summary.split(separator: "\n").contains {
                $0.hasPrefix("  pos") && $0.contains(" 10 ") && $0.contains(" 6 ")
            }, "\(summary)")
    }

    @Test func sighupAndWatchReloadTooAndAnInvalidFileKeepsTheRunningConfiguration() throws {
        let p = try Running(extra: ["--watch"])
        #expect(try Self.feed(p, [1], expecting: 1) == [1])
        try Self.edit(p, "v > 0", "v > [")
        #expect(p.run.line { $0.contains("is invalid; the running configuration stays") } != nil, "\(p.run.stderr)")
        #expect(p.run.line { $0.contains("error: transforms.pos.expr") } != nil, "\(p.run.stderr)")
        #expect(try Self.feed(p, [2], expecting: 2) == [1, 2], "still v > 0")
        try Self.edit(p, "v > [", "v > 5")  // --watch notices this one
        #expect(p.run.line { $0.contains("changed): replaced pos") } != nil, "\(p.run.stderr)")
        try Self.edit(p, "v > 5", "v > 6")
        kill(p.run.process.processIdentifier, SIGHUP)
        #expect(p.run.line { $0.contains("(SIGHUP): replaced pos") } != nil, "\(p.run.stderr)")
        #expect(try Self.feed(p, [3, 7], expecting: 3) == [1, 2, 7])
        #expect(p.run.finish() == 0)
    }

    @Test func aChangedSinkRestartsIntoItsOwnFileAndBothFilesKeepTheirSamples() throws {
        let p = try Running()
        #expect(try Self.feed(p, [1, 2], expecting: 2) == [1, 2])
        try Self.edit(p, "type: logger.jsonl", "type: logger.csv")
        let r = try DAQBinary.run(["control", p.name, "reload"])
        #expect(r.status == 0, "\(r.err)")
        #expect(p.run.line { $0.contains("reloaded") && $0.contains("restarted log") } != nil, "\(p.run.stderr)")
        for v in [3, 4] { p.run.send("{\"v\": \(v)}\n") }
        #expect(p.run.finish() == 0, "\(p.run.stderr)")
        #expect(try Self.logged(p) == [1, 2], "the first instance's file is closed whole")
        let dir = try #require(try FileManager.default.contentsOfDirectory(atPath: p.output).first)
        let csv = try String(contentsOfFile: "\(p.output)/\(dir)/pos.csv", encoding: .utf8).split(separator: "\n")
        let column = try #require(csv.first?.split(separator: ",").firstIndex(of: "v"), "\(csv)")
        let values = csv.dropFirst().compactMap {
            Int($0.split(separator: ",", omittingEmptySubsequences: false)[column])
        }
        #expect(values == [3, 4], "\(csv)")
        let summary = p.run.stderr
        #expect(
            summary.split(separator: "\n").contains { $0.hasPrefix("  log") && $0.contains(" 4 ") },
            "both instances counted: \(summary)")
    }

    @Test func aChangedClockIsRefusedAndTheRunGoesOn() throws {
        let p = try Running()
        try Self.edit(p, "sources:", "clock: virtual\nsources:")
        let r = try DAQBinary.run(["control", p.name, "reload"])
        #expect(r.status == 1 && r.err.contains("the clock changed"), "\(r.err)")
        #expect(
            p.run.line { $0.contains("refused") && $0.contains("the running configuration stays") } != nil,
            "\(p.run.stderr)")
        #expect(try Self.feed(p, [1], expecting: 1) == [1])
        #expect(p.run.finish() == 0)
    }
}
