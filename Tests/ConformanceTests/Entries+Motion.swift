import DAQCore
import DAQTesting
import Foundation

/// Motion replay, its transforms, and the sample loggers.
extension ConformanceTable {
    static var motion: [Entry] {
        let filter = "alpha: 0.2"
        return [
            Entry(.source, "motion.replay") {
                let bad = Fixtures.file("bad.csv", "timestamp,x,y,z\n0.00,0,0,1\n0.01,0,zero,1\n")
                let empty = Fixtures.file("empty.csv", "timestamp,x,y,z\n")
                return ConformanceSpec(
                    config: "path: \(Fixtures.repo("recordings/walk.csv"))", drain: .exactly(6000),
                    failure: FailureCase(
                        config: "path: \(bad)\non_bad_row: fail", report: .fatal, messageContains: "bad.csv:3"),
                    emptyConfig: "path: \(empty)", hugeConfig: "path: \(try hugeMotionFile())")
            },
            Entry(.transform, "motion.magnitude") {
                ConformanceSpec(input: Fixtures.motion, reasons: [.errorsAreEvents: total])
            },
            Entry(.transform, "motion.lowpass") {
                ConformanceSpec(config: filter, input: Fixtures.motion, reasons: [.errorsAreEvents: total])
            },
            Entry(.transform, "motion.highpass") {
                ConformanceSpec(config: filter, input: Fixtures.motion, reasons: [.errorsAreEvents: total])
            },
            Entry(.transform, "motion.resample") {
                ConformanceSpec(
                    config: "rate: 50", input: Fixtures.motion, drain: .flushed, reasons: [.errorsAreEvents: total])
            },
            Entry(.transform, "motion.nonwear") {
                // Fixtures.motion moves all the time: every sample passes on, flagged worn.
                ConformanceSpec(input: Fixtures.motion, reasons: [.errorsAreEvents: total])
            },
            Entry(.transform, "motion.enmo") {
                ConformanceSpec(
                    config: "epoch: 5s", input: Fixtures.motion, drain: .flushed, reasons: [.errorsAreEvents: total])
            },
            Entry(.transform, "motion.mad") {
                ConformanceSpec(
                    config: "epoch: 5s", input: Fixtures.motion, drain: .flushed, reasons: [.errorsAreEvents: total])
            },
            Entry(.transform, "motion.anglez") {
                ConformanceSpec(
                    config: "epoch: 5s", input: Fixtures.motion, drain: .flushed, reasons: [.errorsAreEvents: total])
            },
        ]
    }

    static var loggers: [Entry] {
        [("logger.json", "json"), ("logger.jsonl", "jsonl"), ("logger.csv", "csv")].map { type, ext in
            Entry(.sink, type) {
                ConformanceSpec(
                    config: "directory: ${CONFORMANCE_DIR}", drain: .consumed,
                    failure: FailureCase(config: "directory: /proc/daq-conformance", report: .refusedAtStart),
                    hugeCount: 250_000,
                    checkOutput: { outcome in
                        let written = Fixtures.dataRows(in: outcome.directory, ext: ext)
                        return written == outcome.fed
                            ? nil : "the log holds \(written) data rows, \(outcome.fed) samples were fed"
                    })
            }
        }
    }

    /// A CSV recording of a million rows at 100 Hz, written once per test run.
    static func hugeMotionFile() throws -> String {
        let path = Fixtures.scratchRoot + "/huge-motion.csv"
        if FileManager.default.fileExists(atPath: path) { return path }
        var text = "timestamp,x,y,z\n"
        text.reserveCapacity(40_000_000)
        for i in 0..<1_000_000 { text += "\(Double(i) / 100),0.1,-0.2,\(1 + Double(i % 7) / 100)\n" }
        let partial = path + ".\(UUID().uuidString)"
        try text.write(toFile: partial, atomically: false, encoding: .utf8)
        _ = rename(partial, path)
        return path
    }
}

extension Fixtures {
    /// Data rows a sample logger wrote under `directory` in its `.ext` files: items with a
    /// `seq` for JSON, rows after the header that are not markers for CSV.
    static func dataRows(in directory: String, ext: String) -> Int {
        guard let walker = FileManager.default.enumerator(atPath: directory) else { return 0 }
        var n = 0
        for case let path as String in walker where path.hasSuffix("." + ext) {
            guard let data = FileManager.default.contents(atPath: directory + "/" + path) else { continue }
            let text = String(decoding: data, as: UTF8.self)
            if ext == "csv" {
                n +=
                    text.split(separator: "\n").dropFirst().filter { !$0.contains("marker") && !$0.contains("T") }.count
            } else {
                n += text.components(separatedBy: "\"seq\"").count - 1
            }
        }
        return n
    }
}
