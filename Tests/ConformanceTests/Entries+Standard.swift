import DAQCore
import DAQTesting
import Foundation

/// Standard sources, transforms and sinks (exec aside, in `Entries+Exec.swift`).
extension ConformanceTable {
    /// Why a pure transform has no errors check: no input or state makes it throw.
    static let total = "a pure function of its input: no sample makes it fail at run time"

    static var standard: [Entry] {
        [
            Entry(.source, "generator") {
                ConformanceSpec(
                    config: "count: 1000", drain: .exactly(1000), hugeConfig: "count: 1000000",
                    reasons: [
                        .errorsAreEvents: "computes its samples: nothing can fail at run time",
                        .stopsWithoutInput: "count must be at least 1; a generator always yields",
                    ])
            },
            Entry(.source, "file") {
                let lines = (0..<1000).map { #"{"seq":\#($0),"value":\#(Double($0) / 10)}"# }
                let good = Fixtures.file("good.jsonl", lines.joined(separator: "\n") + "\n")
                let bad = Fixtures.file("bad.jsonl", lines[0..<10].joined(separator: "\n") + "\n{not json\n")
                let empty = Fixtures.file("empty.jsonl", "")
                return ConformanceSpec(
                    config: "path: \(good)\nrate: 100", drain: .exactly(1000),
                    failure: FailureCase(
                        config: "path: \(bad)\nrate: 100", report: .fatal, messageContains: "bad.jsonl:11"),
                    emptyConfig: "path: \(empty)\nrate: 100", hugeConfig: "path: \(try hugeFile())\nrate: 1000")
            },
            Entry(.transform, "filter") {
                ConformanceSpec(config: "expr: value < 5", drain: .atMost, reasons: [.errorsAreEvents: total])
            },
            Entry(.transform, "select") {
                ConformanceSpec(config: "fields: [seq]", reasons: [.errorsAreEvents: total])
            },
            Entry(.transform, "rename") {
                ConformanceSpec(config: "fields: {value: v}", reasons: [.errorsAreEvents: total])
            },
            Entry(.transform, "throttle") {
                ConformanceSpec(config: "rate: 10", drain: .atMost, reasons: [.errorsAreEvents: total])
            },
            Entry(.transform, "window") {
                ConformanceSpec(
                    config: "size: 1\nfield: value\nstats: [count, mean]", drain: .flushed,
                    reasons: [.errorsAreEvents: total])
            },
            Entry(.sink, "null") {
                ConformanceSpec(drain: .consumed, reasons: [.errorsAreEvents: "discards everything: nothing can fail"])
            },
            Entry(.sink, "console") {
                // Few samples, no huge batch: every line lands in the test log.
                ConformanceSpec(
                    config: "format: json", inputCount: 3, drain: .consumed, hugeCount: nil,
                    reasons: [
                        .errorsAreEvents:
                            "writes to the test's standard output, which cannot be made to fail in-process",
                        .hugeBatch:
                            "would print a million lines into the test log; the file sink shares its row layout and takes the huge batch",
                    ])
            },
            Entry(.sink, "file") {
                ConformanceSpec(
                    config: "path: ${CONFORMANCE_DIR}/out.jsonl\nmarkers: false", drain: .consumed,
                    failure: FailureCase(config: "path: /proc/daq-conformance/out.jsonl", report: .refusedAtStart),
                    checkOutput: { outcome in
                        let lines = Fixtures.lines(in: outcome.directory)
                        return lines == outcome.fed
                            ? nil : "the file holds \(lines) lines, \(outcome.fed) samples were fed"
                    })
            },
        ]
    }

    /// A JSON Lines file of a million samples, written once per test run.
    static func hugeFile() throws -> String {
        let path = Fixtures.scratchRoot + "/huge.jsonl"
        if FileManager.default.fileExists(atPath: path) { return path }
        var text = ""
        text.reserveCapacity(30_000_000)
        for i in 0..<1_000_000 { text += "{\"seq\":\(i)}\n" }
        let partial = path + ".\(UUID().uuidString)"
        try text.write(toFile: partial, atomically: false, encoding: .utf8)
        _ = rename(partial, path)
        return path
    }
}
