import DAQCore
import Testing

/// The `steps` schedule: times must increase, each problem at the offending `at` node.
@Suite("Config: steps", .timeLimit(.minutes(20)))
struct ConfigStepsTests {
    /// Three steps; the third step's `at` is on line 15, column 9.
    static func steps(_ a: String, _ b: String, _ c: String) -> String {
        V.minimal + """
            steps:
              - path: walk/out
                at: \(a)
              - path: walk/back
                at: \(b)
              - path: walk/stop
                at: \(c)

            """
    }

    @Test func increasingTimesWithUnits() throws {
        let spec = try V.load(Self.steps("0", "1.5", "2m"))
        #expect(
            spec.steps == [
                StepSpec(path: "walk/out", at: 0), StepSpec(path: "walk/back", at: 1.5),
                StepSpec(path: "walk/stop", at: 120),
            ])
    }

    @Test(arguments: [
        ("5", "5 is not after the previous step's 10"),
        ("10", "10 is not after the previous step's 10"),
        ("9500ms", "9500ms is not after the previous step's 10"),
        ("0.1m", "0.1m is not after the previous step's 10"),
    ])
    func nonIncreasingTimeAtOffendingAt(_ third: String, _ fragment: String) throws {
        let d = try V.single(Self.steps("0", "10s", third))
        expectDiagnostic(d, line: 15, column: 9, path: "steps[2].at", "step times must increase: \(fragment)")
    }

    @Test func secondStepEqualToFirst() throws {
        let d = try V.single(Self.steps("2", "2", "3"))
        expectDiagnostic(d, line: 13, column: 9, path: "steps[1].at", "2 is not after the previous step's 2")
    }

    @Test func flowStyleSteps() throws {
        let d = try V.single(V.minimal + "steps: [{path: a, at: 2}, {path: b, at: 1}]\n")
        expectDiagnostic(
            d, line: 9, column: 41, path: "steps[1].at",
            "step times must increase: 1 is not after the previous step's 2")
    }

    @Test(arguments: [
        ("-1", "must be 0 or more seconds, found -1"),
        ("soon", "expected seconds from the run start, found 'soon'"),
        ("[1]", "expected seconds from the run start, found a list"),
    ])
    func badTime(_ third: String, _ message: String) throws {
        let d = try V.single(Self.steps("0", "1", third))
        expectDiagnostic(d, line: 15, column: 9, path: "steps[2].at", message)
    }

    @Test func missingKeysAndUnknownKey() throws {
        let yaml = V.minimal + "steps:\n  - path: a\n  - at: 3\n    pth: b\n"
        let all = try V.errors(yaml)
        try #require(all.count == 3, "\(all.map(\.description))")
        expectDiagnostic(all[0], line: 10, column: 5, path: "steps[0]", "missing required key 'at'")
        expectDiagnostic(all[1], line: 11, column: 5, path: "steps[1]", "missing required key 'path'")
        expectDiagnostic(all[2], line: 12, column: 5, path: "steps[1].pth", "unknown key 'pth' (did you mean 'path'?)")
    }

    @Test(arguments: [
        ("steps: walk", 8, "steps", "expected a list of {path, at}, found a scalar"),
        ("steps: [walk]", 9, "steps[0]", "expected a mapping {path, at}, found a scalar"),
    ])
    func wrongShape(_ line: String, _ column: Int, _ path: String, _ message: String) throws {
        let d = try V.single(V.minimal + line + "\n")
        expectDiagnostic(d, line: 9, column: column, path: path, message)
    }
}
