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
            Entry(.transform, "motion.calibrate") {
                // Given coefficients: the conformance checks drive the stage without a first pass.
                ConformanceSpec(
                    config: "calibration: {offset: [0.01, -0.01, 0], gain: [1.01, 0.99, 1]}", input: Fixtures.motion,
                    reasons: [.errorsAreEvents: total])
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
            Entry(.sink, "summary.daily") {
                ConformanceSpec(
                    config: "path: ${CONFORMANCE_DIR}/daily.csv", input: Fixtures.epochs, drain: .consumed,
                    failure: FailureCase(
                        input: [Sample(timestamp: 1_700_000_000, uptime: 0, fields: ["mad_mg": 3])], report: .fatal,
                        messageContains: "no finite number in 'enmo_mg'"),
                    hugeCount: 250_000,
                    checkOutput: { outcome in
                        // Every epoch fed is counted in one day's row.
                        let text =
                            (try? String(contentsOfFile: outcome.directory + "/daily.csv", encoding: .utf8)) ?? ""
                        let rows = text.split(separator: "\n").dropFirst()
                        let epochs = rows.map { $0.split(separator: ",", omittingEmptySubsequences: false)[2] }
                            .compactMap { Int($0) }.reduce(0, +)
                        return epochs == outcome.fed ? nil : "the rows count \(epochs) epochs, \(outcome.fed) were fed"
                    })
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
    /// `count` 5 s epochs as motion.enmo emits them, from a UTC midnight: `enmo_mg`, `wear`.
    static func epochs(_ count: Int) -> [Sample] {
        (0..<count).map { i -> Sample in
            let wear: Double = i % 97 < 80 ? 1 : 0
            let fields: Fields = ["enmo_mg": .double(Double(i % 500)), "samples": .int(500), "wear": .double(wear)]
            return Sample(timestamp: 1_699_920_000 + Double(i * 5), uptime: Double(i) / 100, fields: fields)
        }
    }

    /// Data rows a sample logger wrote under `directory` in its `.ext` files: items with a
    /// `seq` for JSON, rows after the header that are not markers for CSV.
    static func dataRows(in directory: String, ext: String) -> Int {
        guard let walker = FileManager.default.enumerator(atPath: directory) else { return 0 }
        var n = 0
        // The run's manifest is JSON too, and names the stream's fields: it holds no rows.
        for case let path as String in walker where path.hasSuffix("." + ext) && !path.hasSuffix("manifest.json") {
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
