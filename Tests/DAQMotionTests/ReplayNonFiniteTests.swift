import DAQCore
import DAQMotion
import DAQTesting
import Foundation
import Testing

/// NaN and infinity have a policy (`nan: fail | skip | keep`) in every spelling other tools
/// write, and a stateful filter never lets one such value poison the outputs after it.
@Suite(.timeLimit(.minutes(20))) struct ReplayNonFiniteTests {
    /// Spellings and the value they stand for, as messages name it.
    static let spellings: [(String, String)] = [
        ("NaN", "NaN"), ("nan", "NaN"), ("-nan", "NaN"), ("NAN", "NaN"), ("inf", "inf"), ("-inf", "-inf"),
        ("Infinity", "inf"), ("-Infinity", "-inf"), ("INF", "inf"), ("+inf", "inf"),
    ]

    /// Ten rows at 100 Hz with `cell` as x on line 5 (the fourth row).
    static func csv(_ cell: String) -> String {
        recording(
            "nan.csv", "t,x,y,z\n" + (0..<10).map { "\(Double($0) / 100),\($0 == 3 ? cell : "\($0)"),0,1\n" }.joined())
    }

    @Test(arguments: spellings.map(\.0))
    func byDefaultANonFiniteCellFailsByFileAndLine(cell: String) throws {
        let path = Self.csv(cell)
        let name = try #require(Self.spellings.first { $0.0 == cell }?.1)
        let (samples, error) = replayUntilFailure(try replay(path))
        #expect(samples.count == 3)
        #expect(
            "\(try #require(error))"
                == "\(path):5: x is \(name), not a finite number (nan: skip drops such rows, nan: keep passes them on)")
    }

    @Test func skipDropsTheRowAndCountsIt() throws {
        let path = Self.csv("NaN")
        let (samples, events) = try replayAll(path, "nan: skip")
        #expect(samples.map { $0.number("x") } == [0, 1, 2, 4, 5, 6, 7, 8, 9])
        #expect(events.warnings == ["dropped \(path):5: x is NaN (nan: skip)"])
        #expect(events.notices.contains("dropped 1 row(s) holding NaN or inf in all (nan: skip)"), "\(events.notices)")
    }

    @Test(arguments: spellings.map(\.0))
    func keepPassesTheValueOn(cell: String) throws {
        let (samples, events) = try replayAll(Self.csv(cell), "nan: keep")
        #expect(samples.count == 10)
        let x = samples[3].number("x")
        let name = try #require(Self.spellings.first { $0.0 == cell }?.1)
        #expect(NonFinite.name(x) == name && !x.isFinite)
        #expect(events.warnings.isEmpty)
    }

    @Test(arguments: ["Nan", "nAn", "info", "1.#INF", "nan(0x1)"])
    func otherWordsAreNotNumbers(cell: String) throws {
        let path = Self.csv(cell)
        let (_, error) = replayUntilFailure(try replay(path, "nan: keep"))
        #expect("\(try #require(error))" == "\(path):5: x is not a number: '\(cell)'")
    }

    @Test func aNonFiniteTimeIsABadRowEvenUnderKeep() throws {
        let path = recording("t.csv", "t,x,y,z\n0,0,0,1\nnan,1,0,1\n0.02,2,0,1\n")
        let (samples, error) = replayUntilFailure(try replay(path, "nan: keep\ntime_unit: s"))
        #expect(samples.count == 1)
        #expect("\(try #require(error))" == "\(path):3: the time is NaN, not a finite number")
        let (kept, _) = try replayAll(path, "nan: skip\ntime_unit: s")
        #expect(kept.map { $0.number("x") } == [0, 2])
    }

    @Test func aNumberColumnBesideTheAxesFollowsThePolicy() throws {
        let path = recording("extra.csv", "t,x,y,z,temp\n0,0,0,1,20.5\n0.01,1,0,1,inf\n0.02,2,0,1,21\n")
        let (samples, error) = replayUntilFailure(try replay(path))
        #expect(samples.count == 1)
        #expect(
            "\(try #require(error))"
                == "\(path):3: temp is inf, not a finite number (nan: skip drops such rows, nan: keep passes them on)")
        let (kept, _) = try replayAll(path, "nan: keep")
        #expect(kept[1]["temp"] == .double(.infinity))
    }

    @Test func jsonLinesReadNaNAndInfinityAsPythonWritesThem() throws {
        // json.dumps({"t": 0.01, "x": float("nan"), ...}) writes NaN, Infinity and -Infinity.
        let path = recording(
            "accel.jsonl",
            """
            {"t": 0, "x": 0, "y": 0, "z": 1}
            {"t": 0.01, "x": NaN, "y": 0, "z": 1}
            {"t": 0.02, "x": 2, "y": Infinity, "z": -Infinity}

            """)
        let (samples, error) = replayUntilFailure(try replay(path))
        #expect(samples.count == 1)
        #expect(
            "\(try #require(error))"
                == "\(path):2: x is NaN, not a finite number (nan: skip drops such rows, nan: keep passes them on)")
        let (kept, _) = try replayAll(path, "nan: keep")
        #expect(kept.count == 3 && kept[2]["y"] == .double(.infinity) && kept[2]["z"] == .double(-.infinity))
    }
}
