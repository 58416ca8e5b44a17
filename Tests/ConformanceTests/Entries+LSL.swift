import DAQCore
import DAQTesting
import Foundation

/// The XDF file plugins; the live `lsl` plugins are excluded (``ConformanceTable/exclusions``).
extension ConformanceTable {
    static var lsl: [Entry] {
        [
            Entry(.source, "xdf.replay") {
                // Files from the test suite's own XDF writer (built from the spec, not from DAQKit's).
                let dir = Fixtures.scratch()
                let script = Fixtures.repo("Tests/Fixtures/xdf/write_xdf.py")
                for (name, flags) in [("rec.xdf", [String]()), ("cut.xdf", ["--truncate"])] {
                    let r = try Process.runToEnd("/usr/bin/env", ["python3", script, dir + "/" + name] + flags)
                    guard r.status == 0 else { throw ConformanceFixtureError("write_xdf.py: \(r.errors)") }
                }
                let path = dir + "/rec.xdf"
                return ConformanceSpec(
                    config: "path: \(path)",
                    drain: .exactly(try Fixtures.recorded("xdf.replay", config: "path: \(path)").count),
                    failure: FailureCase(config: "path: \(dir)/cut.xdf", report: .fatal, messageContains: "chunk"),
                    hugeCount: nil,
                    reasons: [
                        .stopsWithoutInput:
                            "a file without a stream header is no XDF file and is refused at start; an empty stream is a notice (XDFReplayCrossCheckTests)",
                        .hugeBatch:
                            "the fixture writer makes one file of 8,606 samples; reading 300 s of 32 channels at 1 kHz is measured instead",
                    ])
            },
            Entry(.sink, "logger.xdf") {
                ConformanceSpec(
                    config: "directory: ${CONFORMANCE_DIR}", drain: .consumed,
                    failure: FailureCase(config: "directory: /proc/daq-conformance", report: .refusedAtStart),
                    hugeCount: 250_000)
            },
        ]
    }
}

/// A fixture the entry could not make.
struct ConformanceFixtureError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
