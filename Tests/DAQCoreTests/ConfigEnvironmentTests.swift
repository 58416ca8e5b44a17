import DAQCore
import Testing

/// `${VAR}` and `${VAR:-default}` substitution, and where an unset variable is reported.
@Suite("Config: environment substitution", .timeLimit(.minutes(20)))
struct ConfigEnvironmentTests {
    /// `rate` on line 4 and the sink's `path` on line 9.
    static func pipeline(rate: String = "10", path: String = "out.txt", extra: String = "") -> String {
        """
        sources:
          src:
            type: ticker
            rate: \(rate)
        sinks:
          out:
            type: printer
            inputs: src
            path: \(path)
        \(extra)
        """
    }

    static func unsetMessage(_ name: String) -> String {
        "environment variable '\(name)' is not set and has no default (write ${\(name):-default})"
    }

    @Test(arguments: [
        ("${RUN}", ["RUN"], [11]),
        ("out-${RUN}.txt", ["RUN"], [15]),
        ("${DIR}/${RUN}.txt", ["DIR", "RUN"], [11, 18]),
        ("$${LIT}-${RUN}", ["RUN"], [19]),
    ])
    func unsetVariableAtItsDollar(_ path: String, _ names: [String], _ columns: [Int]) throws {
        let all = try V.errors(Self.pipeline(path: path))
        try #require(all.count == names.count, "\(all.map(\.description))")
        for (d, (name, column)) in zip(all, zip(names, columns)) {
            #expect(d.line == 9)
            #expect(d.column == column, "\(d)")
            #expect(d.message == Self.unsetMessage(name))
        }
    }

    @Test func unsetVariableNamesItsKeyPath() throws {
        let d = try V.single(Self.pipeline(path: "${RUN}"))
        #expect(d.path == "sinks.out.path")
    }

    @Test func unsetVariableInsideQuotes() throws {
        let d = try V.single(Self.pipeline(path: "\"out-${RUN}.txt\""))
        #expect(d.line == 9)
        #expect(d.column == 16)
    }

    @Test func unsetVariableInNumericKeyIsReportedOnce() throws {
        let all = try V.errors(Self.pipeline(rate: "${RATE}"))
        let env = try #require(all.first { $0.message == Self.unsetMessage("RATE") })
        #expect(env.line == 4 && env.column == 11)
        #expect(all.count == 1, "\(all.map(\.description))")
    }

    static func rate(_ spec: PipelineSpec) throws -> Double {
        try #require(spec.component("src")?.configuration as? TickerSource.Configuration).rate
    }

    static func path(_ spec: PipelineSpec) throws -> String? {
        try #require(spec.component("out")?.configuration as? PrinterSink.Configuration).path
    }

    @Test(
        arguments: [
            ("${RATE:-5}", [:], 5.0),
            ("${RATE:-5}", ["RATE": "7"], 7.0),
            ("${RATE:-5}", ["RATE": ""], 5.0),
            ("${RATE}", ["RATE": "2.5"], 2.5),
            ("${A}${B:-0}", ["A": "1"], 10.0),
        ] as [(String, [String: String], Double)])
    func plainScalarBecomesNumber(_ rate: String, _ env: [String: String], _ expected: Double) throws {
        let spec = try V.load(Self.pipeline(rate: rate), environment: env)
        #expect(try Self.rate(spec) == expected)
    }

    @Test func topLevelNumberAndEnumFromEnvironment() throws {
        let spec = try V.load(
            Self.pipeline(extra: "speed: ${SPEED:-3}\nclock: ${CLOCK}"), environment: ["CLOCK": "virtual"])
        #expect(spec.speed == 3)
        #expect(spec.clock == .virtual)
    }

    @Test func stringValuesAndLiteralDollar() throws {
        let env = ["RUN": "r1"]
        #expect(try Self.path(V.load(Self.pipeline(path: "out-${RUN}.txt"), environment: env)) == "out-r1.txt")
        #expect(try Self.path(V.load(Self.pipeline(path: "a$${RUN}"), environment: env)) == "a${RUN}")
        #expect(try Self.path(V.load(Self.pipeline(path: "'${RUN:-x}'"), environment: [:])) == "x")
    }

    @Test func quotedSubstitutionStaysAString() throws {
        let d = try V.single(Self.pipeline(rate: "\"${RATE}\""), environment: ["RATE": "5"])
        expectDiagnostic(d, line: 4, column: 11, path: "sources.src.rate", "expected a number, found '5'")
    }
}
