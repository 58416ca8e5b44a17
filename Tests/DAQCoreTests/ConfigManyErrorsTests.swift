import DAQCore
import Foundation
import Testing

/// Validation does not stop at the first problem: every one in a file is reported, in file order.
@Suite("Config: several problems in one file", .timeLimit(.minutes(20)))
struct ConfigManyErrorsTests {
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/config/many-errors.yaml").path

    static let expectedErrors: [(line: Int, column: Int, path: String, message: String)] = [
        (2, 1, "clok", "unknown top-level key 'clok' (did you mean 'clock'?)"),
        (3, 8, "speed", "must be greater than 0, found -1"),
        (6, 11, "sources.src.type", "unknown source type 'tickr' (did you mean 'ticker'?)"),
        (9, 11, "sources.gen.rate", "expected a number, found 'fast'"),
        (11, 3, "transforms.win", "missing 'inputs': a transform reads at least one component"),
        (13, 11, "transforms.win.size", "must be at least 1 sample, found 0"),
        (17, 19, "sinks.out.inputs", "unknown component 'gne' (did you mean 'gen'?)"),
    ]

    @Test func everyErrorOfTheFixtureIsReported() throws {
        let loader = try V.loader()
        var diagnostics: [Diagnostic] = []
        do {
            _ = try loader.load(file: Self.fixture)
            Issue.record("the fixture loaded")
        } catch {
            diagnostics = error.diagnostics
        }
        let errors = diagnostics.filter { $0.severity == .error }
        try #require(errors.count == Self.expectedErrors.count, "\(diagnostics.map(\.description))")
        for (d, e) in zip(errors, Self.expectedErrors) {
            expectDiagnostic(d, line: e.line, column: e.column, path: e.path, e.message)
            #expect(d.file == Self.fixture)
        }
        let warnings = diagnostics.filter { $0.severity == .warning }
        #expect(warnings.map(\.path) == ["sources.gen", "transforms.win"])
        #expect(warnings.map(\.line) == [7, 11])
        #expect(diagnostics.count == 9)
    }

    @Test func orderIsByLineThenColumn() throws {
        let yaml =
            "sinks:\n  out: {type: printer, inputs: [x, y]}\nsources:\n  src: {type: ticker, rate: 1, shape: tri}\n"
        let all = try V.errors(yaml)
        #expect(
            all.map { "\($0.line ?? 0):\($0.column ?? 0)" } == ["2:33", "2:36", "4:39"], "\(all.map(\.description))")
    }

    @Test func twoBadValuesInOneComponent() throws {
        let yaml = V.minimal.replacingOccurrences(of: "rate: 10", with: "rate: 0\n    shape: tri")
        let all = try V.errors(yaml)
        #expect(all.map { "\($0.line ?? 0):\($0.column ?? 0)" } == ["4:11", "5:12"], "\(all.map(\.description))")
        #expect(all.count == 2, "\(all.map(\.description))")
    }

    @Test func errorsInEverySectionAtOnce() throws {
        let yaml = """
            clock: wall
            steps: [{path: a, at: 2}, {path: b, at: 1}]
            sources:
              src: {type: ticker, rate: 1, colour: red}
            transforms:
              t: {type: window, inputs: [src, t], size: 0}
            sinks:
              out: {type: printer, inputs: nowhere, buffer: {size: 0}}
            """
        let all = try V.errors(yaml)
        #expect(
            all.map(\.path) == [
                "clock", "steps[1].at", "sources.src.colour", "transforms.t.inputs", "transforms.t.size",
                "sinks.out.inputs", "sinks.out.buffer.size",
            ], "\(all.map(\.description))")
        #expect(Set(all.compactMap(\.line)) == Set(1...8).subtracting([3, 5, 7]))
    }
}
