import Foundation
import Testing

/// `daq control RUN pause` and `resume` against a real `daq run`: every logger marks the pause,
/// and a live source drops or keeps (`pause: buffer`) what arrives meanwhile.
@Suite("pause markers")
struct PauseMarkerTests {
    /// A pipeline run by the real binary, with its control socket found from its log.
    struct Running {
        let name: String
        let run: LiveProcess
        let output: String

        init(_ body: (_ output: String) -> String) throws {
            name = "pause-\(UUID().uuidString.prefix(8).lowercased())"
            output = FileManager.default.temporaryDirectory.appendingPathComponent("daq-\(name)").path
            let file = output + ".yaml"
            try "name: \(name)\n\(body(output))".write(toFile: file, atomically: true, encoding: .utf8)
            run = try LiveProcess(["run", file, "--log-level", "info", "--status", "never", "--flush-interval", "0.05"])
            #expect(run.line { $0.contains("control socket: ") } != nil, "\(run.stderr)")
        }

        func control(_ verb: String) {
            let r = try? DAQBinary.run(["control", name, verb])
            #expect(r?.status == 0, "\(verb): \(r?.err ?? "")")
        }

        /// Waits until `count` samples of component `component` have gone by, seen by `daq tap`.
        func tap(_ component: String, count: Int, feeding lines: [String] = []) {
            guard let tap = try? LiveProcess(["tap", name, component, "--count", "\(count)"]) else {
                Issue.record("daq tap did not start")
                return
            }
            #expect(tap.line { $0 == "daq tap: tapping \(component)" } != nil, "\(tap.stderr)")
            for line in lines { run.send(line + "\n") }
            #expect(tap.finish() == 0, "\(tap.stderr)")
        }

        /// The `buffer` and `dropped` cells of `component` in `daq top`, once `done` holds for them.
        @discardableResult
        func top(_ component: String, until done: (_ buffered: Int, _ dropped: Int) -> Bool) -> (Int, Int)? {
            let deadline = Date(timeIntervalSinceNow: 30)
            var last: (Int, Int)?
            repeat {  // each round is one real query of the run; the deadline only guards a hang
                guard let top = try? DAQBinary.run(["top", name, "--once", "--interval", "0.05"]), top.status == 0,
                    let row = top.out.split(separator: "\n").map({ $0.split(separator: " ").map(String.init) })
                        .first(where: { $0.first == component }), row.count > 7
                else { continue }
                let buffered = row[5].contains("/") ? Int(row[5].prefix { $0 != "/" }) ?? 0 : 0
                let dropped = Int(row[5].contains("/") ? row[7] : row[6]) ?? -1
                last = (buffered, dropped)
                if done(buffered, dropped) { return last }
            } while Date() < deadline
            Issue.record("daq top never showed what was waited for; last: \(String(describing: last))")
            return last
        }

        /// The items of the logger's file for `stream`.
        func items(_ stream: String) throws -> [[String: Any]] {
            let runDir = try #require(try FileManager.default.contentsOfDirectory(atPath: output).first)
            let text = try String(contentsOfFile: "\(output)/\(runDir)/\(stream).jsonl", encoding: .utf8)
            return text.split(separator: "\n").compactMap {
                try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
            }
        }
    }

    @Test func aReplayPausedByDaqControlIsMarkedAndLosesNothing() throws {
        let samples = 400
        let input = FileManager.default.temporaryDirectory.appendingPathComponent("pause-\(UUID().uuidString).jsonl")
            .path
        try (0..<samples).map { "{\"i\": \($0)}\n" }.joined().write(toFile: input, atomically: true, encoding: .utf8)
        // 4 s of recording at 100 Hz, replayed as recorded: long enough to pause in the middle.
        let p = try Running { out in
            """
            clock: replay
            sources:
              src: {type: file, path: "\(input)", rate: 100}
            sinks:
              log: {type: logger.jsonl, inputs: [src], directory: "\(out)"}
            """
        }
        p.tap("src", count: 20)
        p.control("pause")
        let paused = try DAQBinary.run(["top", p.name, "--once", "--interval", "0.05"])
        #expect(paused.out.contains("— paused"), "\(paused.out)")
        p.control("resume")
        #expect(p.run.finish() == 0, "\(p.run.stderr)")

        let items = try p.items("src")
        let data = items.filter { $0["timestampDate"] == nil }
        #expect(data.compactMap { $0["i"] as? Int } == Array(0..<samples), "no sample lost or repeated")
        let pause = try #require(items.firstIndex { $0["marker"] as? String == "pause" }, "\(items.prefix(3))")
        let resume = try #require(items.firstIndex { $0["marker"] as? String == "resume" })
        #expect(items.compactMap { $0["marker"] as? String } == ["start", "pause", "resume", "stop"])
        // A replay waits in the pause: nothing between the markers, and the clock stood still.
        #expect(resume == pause + 1)
        let at = try #require(items[pause]["uptime"] as? Double)
        #expect(items[resume]["uptime"] as? Double == at)
        #expect(items[..<pause].allSatisfy { ($0["uptime"] as? Double ?? .infinity) <= at })
        #expect(items[(resume + 1)...].allSatisfy { ($0["uptime"] as? Double ?? 0) > at })
        // It paused mid-run: after what the tap saw, before the end.
        #expect(data.filter { ($0["uptime"] as? Double ?? 0) < at }.count >= 20)
        #expect(data.contains { ($0["uptime"] as? Double ?? 0) > at })
        let seconds = try #require(items[resume]["pausedSeconds"] as? Double)
        #expect(seconds > 0)
        #expect(items[pause]["wallDate"] is String && items[resume]["wallDate"] is String)
    }

    /// Three samples, a pause in which four arrive, a resume, two more. The logger's buffer holds
    /// three, so `pause: buffer` keeps three of the four and drops one, with one warning.
    @Test(arguments: ["drop", "buffer"])
    func aLiveSourceDropsOrKeepsWhatArrivesInAPause(mode: String) throws {
        let p = try Running { out in
            """
            sources:
              in: {type: stdin, format: jsonl, pause: \(mode)}
            sinks:
              log: {type: logger.jsonl, inputs: [in], directory: "\(out)", buffer: {size: 3}}
            """
        }
        p.tap("in", count: 3, feeding: (0..<3).map { "{\"i\": \($0)}" })
        p.control("pause")
        for i in 3..<7 { p.run.send("{\"i\": \(i)}\n") }
        // The source has read all four: dropped, or three kept and one dropped.
        p.top("in") { buffered, dropped in mode == "drop" ? dropped == 4 : buffered == 3 && dropped == 1 }
        p.control("resume")
        // What the pause kept goes out before anything read after the resume; the end of stdin ends the run.
        p.run.send("{\"i\": 7}\n{\"i\": 8}\n")
        #expect(p.run.finish() == 0, "\(p.run.stderr)")

        let items = try p.items("in")
        let values = items.compactMap { $0["i"] as? Int }
        let pause = try #require(items.firstIndex { $0["marker"] as? String == "pause" }, "\(items)")
        let resume = try #require(items.firstIndex { $0["marker"] as? String == "resume" })
        let between = items[(pause + 1)..<resume].compactMap { $0["i"] as? Int }
        let warnings = p.run.stderr.split(separator: "\n").filter { $0.contains("arrived during the pause") }
        if mode == "drop" {
            #expect(values == [0, 1, 2, 7, 8])
            #expect(between.isEmpty)
            #expect(warnings.isEmpty)
        } else {
            // Kept in order, with the time they were read: the clock stood at the pause.
            #expect(values == [0, 1, 2, 3, 4, 5, 7, 8])
            #expect(between == [3, 4, 5])
            let at = try #require(items[pause]["uptime"] as? Double)
            #expect(items[(pause + 1)..<resume].allSatisfy { $0["uptime"] as? Double == at })
            // …and each carries the time it arrived, after the pause began: not the pause's start.
            // (A logger's `timestamp` counts from the run's start, as its uptime would have.)
            let kept = items[(pause + 1)..<resume].compactMap { $0["timestamp"] as? Double }
            #expect(kept.count == 3 && kept.allSatisfy { $0 > at }, "\(items[(pause + 1)..<resume])")
            #expect(warnings.count == 1 && warnings.first?.contains("dropped 1 more") == true, "\(p.run.stderr)")
        }
        #expect(items[(resume + 1)...].compactMap { $0["i"] as? Int } == [7, 8])
    }
}
