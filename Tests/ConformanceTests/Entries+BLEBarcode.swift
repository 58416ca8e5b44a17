import DAQCore
import DAQTesting
import Foundation

/// BLE capture replay and discovery; barcode replay, transforms and live scanners.
extension ConformanceTable {
    static let capture = Fixtures.repo("recordings/beacons.btsnoop")
    static let scans = Fixtures.repo("recordings/scans.jsonl")

    /// `count` samples made of what `type` reads from `config`, repeated with rising times.
    static func replayed(_ type: String, _ config: String) -> @Sendable (Int) -> [Sample] {
        let samples = try! Fixtures.recorded(type, config: config)
        let period = (samples.last?.uptime ?? 0) - (samples.first?.uptime ?? 0) + 1
        return { Fixtures.repeated(samples, count: $0, period: period) }
    }

    static var ble: [Entry] {
        [
            Entry(.source, "ble.replay") {
                ConformanceSpec(
                    config: "path: \(capture)",
                    drain: .exactly(try Fixtures.recorded("ble.replay", config: "path: \(capture)").count),
                    failure: FailureCase(config: "path: /nonexistent/beacons.btsnoop", report: .refusedAtStart),
                    reasons: [
                        .stopsWithoutInput:
                            "an empty capture has no header and is refused at start, as the errors check shows",
                        .hugeBatch:
                            "recordings/beacons.btsnoop is the only capture; ble-decode's benchmark reads millions of reports",
                    ])
            },
            Entry(.transform, "ble.discovery") {
                ConformanceSpec(
                    config: "scan_duration: 10 s\nrssi_threshold: -100",
                    input: replayed("ble.replay", "path: \(capture)"),
                    // 100 000, not a million: each report is read as a whole Sample, which in a
                    // debug build makes a million take minutes (linearly, not a hang).
                    drain: .flushed, hugeCount: 100_000, reasons: [.errorsAreEvents: total])
            },
        ]
    }

    /// Scans as barcode.replay reads them from recordings/scans.jsonl, repeated.
    static func scanInput() -> @Sendable (Int) -> [Sample] { replayed("barcode.replay", "path: \(scans)") }

    static var barcode: [Entry] {
        [
            Entry(.source, "barcode.replay") {
                let lines = try String(contentsOfFile: scans, encoding: .utf8).split(separator: "\n")
                let bad = Fixtures.file("bad.jsonl", lines.prefix(3).joined(separator: "\n") + "\n{not json\n")
                let empty = Fixtures.file("empty.jsonl", "")
                return ConformanceSpec(
                    config: "path: \(scans)",
                    drain: .exactly(try Fixtures.recorded("barcode.replay", config: "path: \(scans)").count),
                    failure: FailureCase(
                        config: "path: \(bad)\non_bad_row: fail", report: .fatal, messageContains: "bad.jsonl:4"),
                    emptyConfig: "path: \(empty)",
                    reasons: [
                        .hugeBatch:
                            "a scan log of a million codes is not a recording anyone keeps; the transforms after it take huge batches"
                    ])
            },
            Entry(.transform, "barcode.gs1") {
                ConformanceSpec(input: scanInput(), hugeCount: 250_000, reasons: [.errorsAreEvents: total])
            },
            Entry(.transform, "barcode.dedup") {
                ConformanceSpec(
                    config: "window: 2 s", input: scanInput(), drain: .atMost, hugeCount: 250_000,
                    reasons: [.errorsAreEvents: total])
            },
            Entry(.transform, "barcode.step") {
                // Step cards in the first round of scans only, as in a session: thousands of step
                // changes would measure the run's step schedule, not the batch size.
                let make = scanInput()
                let first = try Fixtures.recorded("barcode.replay", config: "path: \(scans)").count
                let input: @Sendable (Int) -> [Sample] = { n in
                    make(n).enumerated().map { i, s in
                        guard i >= first, s["code"]?.stringValue?.hasPrefix("STEP:") == true else { return s }
                        var plain = s
                        plain["code"] = .string("4006381333931")
                        return plain
                    }
                }
                return ConformanceSpec(
                    input: input, drain: .atMost, hugeCount: 250_000, reasons: [.errorsAreEvents: total])
            },
        ]
    }
}

/// The live scanners, through the same device paths their own tests use.
extension ConformanceTable {
    /// Each code is one session: `scan.start`, `scan.data`, `scan.stop`.
    static let samplesPerCode = 3

    static let liveScanners: [Entry] = [
        Entry.prepared(.source, "barcode.serial") {
            let port = try FakeSerialPort()
            let codes = 50
            let spec = ConformanceSpec(
                config: "device: \(port.link)\nbaud: 115200", drain: .exactly(codes * samplesPerCode),
                failure: FailureCase(config: "device: /nonexistent/ttyACM9", report: .refusedAtStart),
                stall: StallCase(config: "device: \(port.link)\nbaud: 115200", signal: .started),
                live: LiveInput(count: codes * samplesPerCode) { _ in
                    try port.send(String(repeating: "4006381333931\r\n", count: codes))
                },
                clock: .realtime,
                reasons: [
                    .hugeBatch: "a serial line delivers codes one by one; the transforms after it take huge batches"
                ])
            return Prepared(spec: spec, keepAlive: [port])
        },
        Entry.prepared(.source, "barcode.hid") {
            let keyboard = try FakeKeyboard()
            // 20 codes stay within a FIFO's 64 KiB, so typing them never waits for the reader.
            let codes = 20
            let spec = ConformanceSpec(
                config: "device: \(keyboard.path)\ngrab: false", drain: .exactly(codes * samplesPerCode),
                failure: FailureCase(config: "device: /nonexistent/event9\ngrab: false", report: .refusedAtStart),
                stall: StallCase(config: "device: \(keyboard.path)\ngrab: false", signal: .started),
                live: LiveInput(count: codes * samplesPerCode) { _ in
                    for _ in 0..<codes { try keyboard.type("4006381333931") }
                },
                clock: .realtime,
                reasons: [
                    .hugeBatch: "a keyboard wedge types codes one by one; the transforms after it take huge batches"
                ])
            return Prepared(spec: spec, keepAlive: [keyboard])
        },
    ]
}
