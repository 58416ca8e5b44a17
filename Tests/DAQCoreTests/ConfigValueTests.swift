import DAQCore
import Testing

/// Missing required keys, wrong types, unknown enum values and out-of-range values.
@Suite("Config: values", .timeLimit(.minutes(20)))
struct ConfigValueTests {
    /// `sources.src` with `rateLine` as line 4, `win` (window) reading it with `sizeLine` as line 10.
    static func pipeline(
        rate rateLine: String = "    rate: 10", size sizeLine: String = "    size: 4", extra: String = ""
    ) -> String {
        """
        sources:
          src:
            type: ticker
        \(rateLine)
        transforms:
          win:
            type: window
            inputs: src
            label: w
        \(sizeLine)
        sinks:
          out:
            type: printer
            inputs: win
        \(extra)
        """
    }

    @Test func validPipelineDecodesPluginConfiguration() throws {
        let spec = try V.load(Self.pipeline())
        let ticker = try #require(spec.component("src")?.configuration as? TickerSource.Configuration)
        let window = try #require(spec.component("win")?.configuration as? WindowTransform.Configuration)
        #expect(ticker.rate == 10)
        #expect(window.size == 4)
        #expect(window.label == "w")
    }

    @Test func missingRequiredKeyAtComponentName() throws {
        let d = try V.single(Self.pipeline(rate: "    shape: sine"))
        expectDiagnostic(d, line: 2, column: 3, path: "sources.src", "missing required key 'rate'")
    }

    @Test(arguments: [
        ("    rate: fast", "    size: 4", 4, "sources.src.rate", "expected a number, found 'fast'"),
        ("    rate: \"10\"", "    size: 4", 4, "sources.src.rate", "expected a number, found '10'"),
        ("    rate: 10", "    size: big", 10, "transforms.win.size", "expected an integer, found 'big'"),
        ("    rate: 10", "    size: 2.5", 10, "transforms.win.size", "expected an integer, found '2.5'"),
    ])
    func wrongType(_ rate: String, _ size: String, _ line: Int, _ path: String, _ message: String) throws {
        let d = try V.single(Self.pipeline(rate: rate, size: size))
        expectDiagnostic(d, line: line, column: 11, path: path, message)
    }

    @Test func listWhereNumberExpected() throws {
        let d = try V.single(Self.pipeline(rate: "    rate: [1, 2]"))
        expectDiagnostic(d, line: 4, column: 11, path: "sources.src.rate")
        #expect(d.message == "expected a single value, found a list")
    }

    @Test(arguments: [
        (
            "clock: realtme", 8, "clock",
            "unknown value 'realtme' (did you mean 'realtime'?); expected one of: realtime | replay | virtual"
        ),
        ("clock: wall", 8, "clock", "unknown value 'wall'; expected one of: realtime | replay | virtual"),
        ("speed: -1", 8, "speed", "must be greater than 0, found -1"),
        ("speed: 0", 8, "speed", "must be greater than 0, found 0"),
        ("speed: inf", 8, "speed", "must be greater than 0, found inf"),
        ("speed: fast", 8, "speed", "expected a number greater than 0, found 'fast'"),
        ("speed: '2'", 8, "speed", "expected a number greater than 0, found '2'"),
        ("name: ''", 7, "name", "expected a non-empty string"),
    ])
    func topLevelValue(_ line: String, _ column: Int, _ path: String, _ message: String) throws {
        let d = try V.single(Self.pipeline(extra: line))
        expectDiagnostic(d, line: 15, column: column, path: path, message)
    }

    @Test func pluginEnumUnknownValue() throws {
        let d = try V.single(Self.pipeline(rate: "    rate: 1\n    shape: sqare"))
        expectDiagnostic(
            d, line: 5, column: 12, path: "sources.src.shape",
            "unknown value 'sqare' (did you mean 'square'?); expected one of: sine, square")
    }

    @Test(arguments: [
        (
            "{size: 8, when_full: drop}", 34, "sinks.out.buffer.when_full",
            "unknown value 'drop'; expected one of: block | drop_oldest | drop_newest"
        ),
        (
            "{when_full: drop_olde}", 25, "sinks.out.buffer.when_full",
            "unknown value 'drop_olde' (did you mean 'drop_oldest'?)"
        ),
        ("{size: 0}", 20, "sinks.out.buffer.size", "must be at least 1 sample, found 0"),
        ("{size: lots}", 20, "sinks.out.buffer.size", "expected a number of samples, found 'lots'"),
        ("[8]", 13, "sinks.out.buffer", "expected a mapping {size, when_full}, found a list"),
    ])
    func bufferValue(_ buffer: String, _ column: Int, _ path: String, _ message: String) throws {
        let d = try V.single(Self.pipeline(extra: "    buffer: \(buffer)"))
        expectDiagnostic(d, line: 15, column: column, path: path, message)
    }

    @Test func bufferIsDecoded() throws {
        let spec = try V.load(Self.pipeline(extra: "    buffer: {size: 8, when_full: drop_newest}"))
        #expect(spec.component("out")?.buffer == BufferSpec(size: 8, whenFull: .dropNewest))
        #expect(spec.component("win")?.buffer == .default)
    }

    @Test(arguments: [
        ("    rate: 0", "    size: 4", 4, "sources.src.rate", "must be greater than 0 Hz, found 0.0"),
        ("    rate: -2.5", "    size: 4", 4, "sources.src.rate", "must be greater than 0 Hz, found -2.5"),
        ("    rate: 10", "    size: 0", 10, "transforms.win.size", "must be at least 1 sample, found 0"),
    ])
    func outOfRangeFromPluginValidate(_ rate: String, _ size: String, _ line: Int, _ path: String, _ message: String)
        throws
    {
        let d = try V.single(Self.pipeline(rate: rate, size: size))
        expectDiagnostic(d, line: line, column: 11, path: path, message)
    }
}
