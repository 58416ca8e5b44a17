import DAQCore
import DAQTesting
import Testing

@testable import DAQStandard

@Suite("filter expressions", .timeLimit(.minutes(20)))
struct ExpressionTests {
    static let batch = Batch(
        stream: "s",
        samples: [
            Sample(uptime: 0, stepPath: "walk", fields: ["x": 1.5, "n": 3, "name": "a", "ok": true]),
            Sample(uptime: 1, stepPath: "rest", fields: ["x": -2.0, "n": 4, "name": "b", "ok": false]),
            Sample(uptime: 2, fields: ["x": .null, "n": 5, "name": "a", "ok": true]),
        ])

    @Test(arguments: [
        ("x > 0", [true, false, false]),
        ("x >= -2 && n != 4", [true, false, false]),
        ("x == null", [false, false, true]),
        ("!(x > 0) || name == 'b'", [false, true, true]),
        ("n % 2 == 1", [true, false, true]),
        ("x * 2 + 1 > 3.5", [true, false, false]),
        ("-x > 1", [false, true, false]),
        ("name == \"a\" && ok", [true, false, true]),
        ("stepPath == 'rest'", [false, true, false]),
        ("uptime >= 1", [false, true, true]),
        ("missing > 0", [false, false, false]),
        ("n / 0 == null", [true, true, true]),
    ])
    func evaluates(_ text: String, _ expected: [Bool]) throws {
        #expect(try Expression(text).matches(Self.batch).keep == expected)
    }

    @Test(arguments: [
        ("x > ", 4, "unexpected end"),
        ("x = 1", 2, "use '=='"),
        ("(x > 1", 0, "never closed"),
        ("x > 1 and y", 6, "'and' is not an operator"),
        ("x > 'abc", 4, "never closed"),
        ("1 < x < 3", 6, "do not chain"),
        ("x > 1 )", 6, "unexpected ')"),
        ("", 0, "empty"),
        ("x # 2", 2, "unexpected '#'"),
    ])
    func reportsTheColumnOfTheError(_ text: String, _ offset: Int, _ fragment: String) {
        do {
            _ = try Expression(text)
            Issue.record("'\(text)' parsed")
        } catch {
            #expect(error.offset == offset, "\(error)")
            #expect(error.message.contains(fragment), "\(error)")
        }
    }

    @Test func anExpressionErrorPointsInsideTheYAMLScalar() throws {
        let yaml = """
            sources: {g: {type: generator, count: 1}}
            transforms:
              f:
                type: filter
                inputs: [g]
                expr: "value > > 2"
            sinks: {o: {type: null, inputs: [f]}}
            """
        let registry = try PluginRegistry(StandardPlugins.all)
        do {
            _ = try PipelineLoader(registry: registry, environment: [:]).load(text: yaml, file: "f.yaml")
            Issue.record("loaded")
        } catch {
            let d = try #require(error.diagnostics.first)
            // The scalar starts at column 11 (its quote); the bad `>` is 8 scalars into the text.
            #expect(d.description.hasPrefix("f.yaml:6:20: error: transforms.f.expr: unexpected '>"))
        }
    }
}
