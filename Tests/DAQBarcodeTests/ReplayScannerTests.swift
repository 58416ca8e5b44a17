import DAQCore
import DAQTesting
import Testing

@testable import DAQBarcode

@Suite(.timeLimit(.minutes(20))) struct ReplayScannerTests {
    func replay(_ path: String, _ extra: String = "") throws -> SourceHarness {
        try SourceHarness(ReplayScannerSource.self, config: "path: \"\(path)\"\n" + extra, name: "scanner")
    }

    @Test func jsonLinesContinuousWithControlCharactersEscaped() throws {
        let log = """
            {"timestamp": 100.0, "code": "]C1010950110153000317251231\\u001d10ABC"}
            {"timestamp": 100.5, "code": "4006381333931", "symbology": "ean-13"}
            """
        let h = try replay(file("scans.jsonl", log))
        let (samples, status) = try h.read()
        #expect(status == .finished)
        #expect(sessionsAreWellFormed(samples))
        let data = samples.filter { $0.event == "scan.data" }
        #expect(data.count == 2)
        #expect(data[0]["code"] == .string("010950110153000317251231\u{1D}10ABC"))
        #expect(data[0]["aim"] == .string("]C1"))
        #expect(data[1]["symbology"] == .string("ean-13"))
        #expect(data.map(\.uptime) == [0, 0.5] && data.map(\.timestamp) == [100, 100.5])
    }

    @Test func triggeredSessionsFromTheLogEndInEachOutcome() throws {
        let log = """
            {"timestamp": 0, "event": "trigger"}
            {"timestamp": 0.4, "code": "A"}
            {"timestamp": 1, "event": "cancel"}
            {"timestamp": 2, "event": "trigger"}
            {"timestamp": 2.5, "event": "cancel"}
            {"timestamp": 3, "event": "trigger"}
            {"timestamp": 3.1, "event": "error", "reason": "scanner reported a fault"}
            {"timestamp": 4, "event": "trigger"}
            {"timestamp": 9, "code": "late"}
            {"timestamp": 10, "event": "trigger"}
            """
        let h = try replay(file("scans.jsonl", log), "mode: triggered\ntimeout: 3 s")
        let (samples, _) = try h.read()
        #expect(
            timeline(samples) == [
                "scan.start#1@0", "scan.data#1@400 A", "scan.stop#1@400",
                "scan.start#2@2000", "scan.cancel#2@2500", "scan.stop#2@2500",
                "scan.start#3@3000", "scan.error#3@3100 (scanner reported a fault)", "scan.stop#3@3100",
                "scan.start#4@4000", "scan.timeout#4@7000", "scan.stop#4@7000",
                "scan.start#5@10000", "scan.timeout#5@13000", "scan.stop#5@13000",
            ])
        #expect(sessionsAreWellFormed(samples))
        #expect(
            h.events.warnings.contains {
                $0.hasSuffix("code at 9.0 s read with no session open (mode: triggered): ignored")
            })
    }

    @Test func csvWithHeader() throws {
        let h = try replay(file("scans.csv", "timestamp,code\n5,4006381333931\n5.25,ABC,with comma\n"))
        let (samples, _) = try h.read()
        #expect(
            samples.filter { $0.event == "scan.data" }.map { $0["code"]?.stringValue } == [
                "4006381333931", "ABC,with comma",
            ])
    }

    @Test func csvCodeWithAControlCharacterNamesLineAndColumn() throws {
        let path = file("scans.csv", "timestamp,code\n5,OK\n6,AB\u{1D}CD\n")
        let h = try replay(path)
        #expect(throws: (any Error).self) { try h.read() }
        let h2 = try replay(path, "on_bad_row: skip")
        let (samples, _) = try h2.read()
        #expect(samples.count == 3)
        #expect(
            h2.events.warnings.first
                == "skipped \(path):3: control character 0x1D at column 5: codes with control characters go in JSON Lines, escaped (\\u001d)"
        )
    }

    @Test func badJSONLineFailsNamingTheLine() throws {
        let path = file("scans.jsonl", "{\"timestamp\": 1, \"code\": \"A\"}\n{\"timestamp\": 2, \"code\": 5}\n")
        let h = try replay(path)
        do {
            _ = try h.read()
            Issue.record("expected a failure")
        } catch {
            #expect("\(error)" == "\(path):2: 'code' must be a string")
        }
    }

    @Test func unknownEventAndMissingFile() throws {
        let path = file("scans.jsonl", "{\"timestamp\": 1, \"event\": \"explode\"}\n")
        #expect(throws: (any Error).self) { try replay(path).read() }
        #expect(throws: (any Error).self) { try replay(tempDirectory() + "/none.jsonl") }
    }

    @Test func triggersInConfigNeedALiveInput() {
        #expect(throws: ConfigIssue.self) {
            try PluginConfigLoader.decode(
                ReplayScannerSource.Configuration.self, yaml: "path: a.jsonl\nmode: triggered\ncontrol: ctl")
        }
        #expect(throws: ConfigIssue.self) {
            try PluginConfigLoader.decode(
                ReplayScannerSource.Configuration.self, yaml: "path: a.jsonl\ntrigger_from: x")
        }
    }
}
