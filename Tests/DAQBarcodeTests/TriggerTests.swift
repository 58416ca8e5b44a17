import DAQCore
import DAQStandard
import DAQTesting
import Foundation
import Testing

@testable import DAQBarcode

@Suite(.serialized, .timeLimit(.minutes(20))) struct TriggerTests {
    /// Each sample of another component opens a session at that sample's time.
    @Test func samplesOfAnotherComponentTrigger() throws {
        let port = try FakeScannerPort()
        let yaml = """
            name: trig
            clock: realtime
            sources:
              button: {type: generator, count: 2, rate: 5}
              scanner: {type: barcode.serial, device: "\(port.link)", mode: triggered, timeout: 0.1 s, trigger_from: button}
            sinks:
              presses: {type: collect, inputs: [button]}
              scans: {type: collect, inputs: [scanner]}
            """
        let outcome = try PipelineHarness.run(
            yaml: yaml, plugins: BarcodePlugins.all + StandardPlugins.all,
            options: RunOptions(duration: 0.6, flushInterval: 0))
        let scans = outcome.data("scans")
        #expect(sessionsAreWellFormed(scans))
        #expect(
            timeline(scans) == [
                "scan.start#1@0", "scan.timeout#1@100", "scan.stop#1@100",
                "scan.start#2@200", "scan.timeout#2@300", "scan.stop#2@300",
            ])
    }

    @Test func triggerFromAnUnknownComponentIsAnError() throws {
        let port = try FakeScannerPort()
        let yaml = """
            name: trig
            sources:
              scanner: {type: barcode.serial, device: "\(port.link)", mode: triggered, trigger_from: nobody}
            sinks:
              scans: {type: collect, inputs: [scanner]}
            """
        #expect(throws: PipelineStartError.self) { try PipelineHarness.run(yaml: yaml, plugins: BarcodePlugins.all) }
    }

    @Test func controlLinesFromAFIFO() throws {
        let port = try FakeScannerPort()
        let fifo = tempDirectory() + "/control"
        try #require(mkfifo(fifo, 0o600) == 0)
        let h = try SourceHarness(
            SerialScannerSource.self, config: "device: \"\(port.link)\"\nmode: triggered\ncontrol: \"\(fifo)\"",
            name: "scanner", clock: RunClock(mode: .realtime))
        defer { h.stop() }
        let writer = open(fifo, O_WRONLY | O_NONBLOCK)
        defer { close(writer) }
        let text = Array("trigger\nfire\n".utf8)
        #expect(write(writer, text, text.count) == text.count)
        _ = try h.read(until: { $0.contains { $0.event == "scan.start" } })
        let cancel = Array("cancel\n".utf8)
        #expect(write(writer, cancel, cancel.count) == cancel.count)
        let rest = try h.read(until: { $0.contains { $0.event == "scan.stop" } })
        #expect(rest.map(\.event) == ["scan.cancel", "scan.stop"])
        #expect(h.events.warnings.contains("\(fifo):2: 'fire' is not a command: expected 'trigger' or 'cancel'"))
    }
}
