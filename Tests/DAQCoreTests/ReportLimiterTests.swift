import DAQCore
import Testing

/// The first few messages of a kind pass; the rest are counted and summarised.
@Suite struct ReportLimiterTests {
    @Test func theFirstTwentyOfAKindPassAndTheRestAreCounted() {
        var limiter = ReportLimiter()
        var verdicts: [ReportLimiter.Verdict] = []
        for i in 0..<100_000 {
            verdicts.append(limiter.admit(component: "mqtt", severity: .warning, message: "bad payload \(i): oops"))
        }
        #expect(verdicts.prefix(20).allSatisfy { $0 == .pass })
        let summaries = verdicts.compactMap { if case .summary(let s) = $0 { s } else { nil } }
        #expect(
            summaries == [
                "… and 10 more like it so far: bad payload #", "… and 100 more like it so far: bad payload #",
                "… and 1,000 more like it so far: bad payload #", "… and 10,000 more like it so far: bad payload #",
            ])
        #expect(verdicts.filter { $0 == .count }.count == 100_000 - 20 - 4)
        #expect(
            limiter.summaries()
                == [.init(component: "mqtt", severity: .warning, message: "… and 99,980 more like it: bad payload #")])
    }

    @Test func kindsAreCountedApartByComponentSeverityAndShape() {
        var limiter = ReportLimiter()
        for i in 0..<30 {
            _ = limiter.admit(component: "a", severity: .warning, message: "row \(i) is bad")
            _ = limiter.admit(component: "a", severity: .notice, message: "row \(i) is bad")
            _ = limiter.admit(component: "b", severity: .warning, message: "row \(i) is bad")
        }
        // A different shape of the same component still passes.
        #expect(limiter.admit(component: "a", severity: .warning, message: "skipped 30 rows in all") == .pass)
        #expect(limiter.summaries().map(\.message) == Array(repeating: "… and 10 more like it: row # is bad", count: 3))
        #expect(limiter.summaries(of: "b").count == 1)
    }

    @Test(arguments: [
        ("skipped a message on 'x/\u{1B}[2J' is not samples: bad JSON at 3", "skipped a message on '…' is not samples"),
        ("stderr: Traceback (most recent call last):", "stderr"),
        ("skipped /data/a.csv:12: bad value", "skipped /data/a.csv:#"),
        ("can't open 7 files", "can't open # files"),
    ])
    func aMessagesKindIsItsShape(message: String, shape: String) {
        var limiter = ReportLimiter()
        for _ in 0..<21 { _ = limiter.admit(component: "c", severity: .notice, message: message) }
        #expect(limiter.summaries().first?.message == "… and 1 more like it: \(shape)")
    }

    /// Messages of ever new shapes still take bounded room: past the kinds a component may
    /// have, they share one, counted from the first.
    @Test func everNewShapesShareOneKind() {
        var limiter = ReportLimiter()
        var passed = 0
        for i in 0..<10_000 {
            let word = String(i, radix: 26).map {
                Character(Unicode.Scalar(UInt8(ascii: "a") + UInt8(String($0), radix: 26)!))
            }
            if limiter.admit(component: "c", severity: .notice, message: "word \(String(word))") == .pass {
                passed += 1
            }
        }
        #expect(passed == ReportLimiter.kindsPerComponent)
        #expect(limiter.summaries().map(\.message) == ["… and 9,968 more like it: other messages"])
    }
}
