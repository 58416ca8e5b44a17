import DAQCore
import DAQTesting
import Foundation
import Testing

@testable import DAQBarcode

#if canImport(Glibc)
    import Glibc
#endif

/// What each Barcode plugin declares against what it emits: every field of every sample (scan
/// events all) declared, with a type that takes its value, in the order the plugin writes them.
@Suite struct BarcodeDescriptorTests {
    static let context = PluginContext(
        componentName: "scanner", pipelineName: "test", baseDirectory: "", clock: .virtual)
    static let scans = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("recordings/scans.jsonl").path

    static func problems(_ samples: [Sample], _ d: StreamDescriptor) -> [String] {
        DescriptorFit.problems(samples, d)
    }

    static func inOrder(_ s: Sample, _ d: StreamDescriptor) -> Bool { DescriptorFit.inOrder(s, d) }

    func replay(_ path: String, _ extra: String = "") throws -> (StreamDescriptor, [Sample]) {
        let config = try PluginConfigLoader.decode(
            ReplayScannerSource.Configuration.self, yaml: "path: \"\(path)\"\n" + extra)
        let source = try ReplayScannerSource(configuration: config, context: Self.context)
        let d = try source.describe(context: Self.context)
        return (d, try SourceHarness(source, name: "scanner").read().samples)
    }

    @Test func replayDeclaresEveryEventField() throws {
        let (d, samples) = try replay(Self.scans)
        #expect(Self.problems(samples, d) == [])
        #expect(samples.allSatisfy { $0.kind == .event && Self.inOrder($0, d) })
        #expect(d.timeBase == .recorded && d.rate == .irregular)
        #expect(d.origin == StreamOrigin(plugin: "barcode.replay", file: Self.scans) && d.metadata["format"] == "jsonl")
        // Every outcome, with a timeout: each declared field is written by some event.
        let log = """
            {"timestamp": 0, "event": "trigger"}
            {"timestamp": 0.4, "code": "A"}
            {"timestamp": 1, "event": "trigger"}
            {"timestamp": 1.5, "event": "cancel"}
            {"timestamp": 3, "event": "trigger"}
            {"timestamp": 3.1, "event": "error", "reason": "fault"}
            {"timestamp": 4, "event": "trigger"}
            """
        let (triggered, events) = try replay(file("triggered.jsonl", log), "mode: triggered\ntimeout: 3 s")
        #expect(Self.problems(events, triggered) == [] && events.allSatisfy { Self.inOrder($0, triggered) })
        #expect(Set(triggered.fields.map(\.name)).subtracting(events.flatMap(\.fields.keys)) == [])
        #expect(triggered.timeBase == .elapsed, "times before 2001 count from the log's start")
        #expect(triggered.unit(of: "timeout") == "s")
    }

    @Test func replayTimeBaseFollowsTheLog() throws {
        func timeBase(_ name: String, _ text: String, _ extra: String = "") throws -> TimeBase {
            let config = try PluginConfigLoader.decode(
                ReplayScannerSource.Configuration.self, yaml: "path: \"\(file(name, text))\"\n" + extra)
            return try ReplayScannerSource(configuration: config, context: Self.context).describe(context: Self.context)
                .timeBase
        }
        #expect(try timeBase("a.csv", "timestamp,code\n1763800000.5,X\n") == .recorded)
        #expect(try timeBase("b.csv", "timestamp,code\n5,X\n") == .elapsed)
        #expect(try timeBase("c.txt", "X\nY\n", "format: text") == .elapsed)
        let live = try PluginConfigLoader.decode(ReplayScannerSource.Configuration.self, yaml: "path: \"-\"")
        let d = try ReplayScannerSource(configuration: live, context: Self.context).describe(context: Self.context)
        #expect(d.timeBase == .run && d.origin.file == nil)
    }

    /// The shipped log through gs1, dedup and step, as `pipelines/barcode-replay.yaml` runs it,
    /// plus codes with a measure, an amount in a currency and the text-valued price per unit.
    @Test func transformsDeclareWhatTheyAddToTheScans() throws {
        let gs = "\\u001d"
        let more = """
            {"timestamp": 1763800020, "code": "]C13103000750\(gs)3932978129\(gs)800826123114"}
            {"timestamp": 1763800021, "code": "]C18005000199"}
            """
        let shipped = try String(contentsOfFile: Self.scans, encoding: .utf8)
        let (input, samples) = try replay(file("scans.jsonl", shipped + (shipped.hasSuffix("\n") ? "" : "\n") + more))
        var d = input
        var out = samples
        let stages = [
            ("barcode.gs1", try TransformHarness(GS1Transform.self)),
            ("barcode.dedup", try TransformHarness(DedupTransform.self, config: "window: 2 s")),
            ("barcode.step", try TransformHarness(StepTransform.self)),
        ]
        for (type, h) in stages {
            // barcode.gs1 declares each element as a code first brings it: asked after the data.
            out = try h.push(out) + (try h.finish())
            let next = try h.transform.describe(input: d, context: Self.context)
            #expect(Self.problems(out, next) == [], "\(type)")
            #expect(Array(next.fields.prefix(d.fields.count)) == d.fields, "\(type) keeps the input's fields")
            #expect(next.timeBase == d.timeBase && next.origin == d.origin && next.rate == d.rate)
            if type == "barcode.gs1" {
                #expect(next.fields.suffix(2).map(\.name) == ["gs1", "gs1_error"])
                #expect(next.unit(of: "net_weight_kg") == "kg" && next.field("net_weight_kg")?.type == .double)
                #expect(next.field("price")?.type == .double && next.field("price_currency")?.type == .string)
                #expect(next.field("expiry_date")?.type == .string && next.field("gs1")?.type == .object)
                #expect(next.field("price_per_unit")?.type == .any, "8005 is text, 395n a number")
                #expect(out.contains { $0["price_per_unit"] == .string("000199") })
                // What a code gives comes after what the scan had, which keeps its order.
                for s in out {
                    let own = s.fields.keys.prefix { d.field($0) != nil }
                    let at = own.compactMap { d.fieldIndex($0) }
                    #expect(at == at.sorted())
                    #expect(s.fields.keys.dropFirst(own.count).allSatisfy { d.field($0) == nil })
                }
            }
            d = next
        }
        #expect(d.fields.last == FieldDescriptor("step", .string))
        #expect(out.contains { $0["step"] == .string("inspection") })
        #expect(out.contains { $0["batch_lot"] == .string("LOT4711") })
    }

    @Test func liveScannersDeclareFromConfigurationAndEmitWhatTheyDeclared() throws {
        // Declared without the device: this one does not exist.
        let absent = try PluginConfigLoader.decode(SerialScannerSource.Configuration.self, yaml: "device: /dev/ttyNONE")
        let none = try SerialScannerSource(configuration: absent, context: Self.context).describe(context: Self.context)
        #expect(none.origin == StreamOrigin(plugin: "barcode.serial", device: "/dev/ttyNONE") && none.timeBase == .run)

        let port = try FakeScannerPort()
        let serial = try PluginConfigLoader.decode(
            SerialScannerSource.Configuration.self, yaml: "device: \"\(port.link)\"\nmode: triggered\ntimeout: 0.2 s")
        let source = try SerialScannerSource(configuration: serial, context: Self.context)
        let d = try source.describe(context: Self.context)
        let h = try SourceHarness(source, name: "scanner", clock: RunClock(mode: .realtime))
        defer { h.stop() }
        h.send(ControlCommand("trigger"))
        var samples = try h.read(until: { $0.contains { $0.event == "scan.start" } })
        port.send("]C10109501101530003\r")
        samples += try h.read(until: { $0.contains { $0.event == "scan.stop" } })
        h.send(ControlCommand("trigger"))
        samples += try h.read(until: { $0.filter { $0.event == "scan.stop" }.count == 1 && $0.count >= 3 })
        #expect(samples.contains { $0.event == "scan.data" } && samples.contains { $0.event == "scan.timeout" })
        #expect(Self.problems(samples, d) == [] && samples.allSatisfy { Self.inOrder($0, d) })
        #expect(d.origin.device == port.link)

        let fifo = tempDirectory() + "/event5"
        try #require(mkfifo(fifo, 0o600) == 0)
        let writer = open(fifo, O_RDWR)
        defer { close(writer) }
        let hid = try PluginConfigLoader.decode(
            HIDScannerSource.Configuration.self, yaml: "device: \"\(fifo)\"\ngrab: false")
        let wedge = try HIDScannerSource(configuration: hid, context: Self.context)
        let w = try wedge.describe(context: Self.context)
        #expect(w.fields == d.fields && w.origin == StreamOrigin(plugin: "barcode.hid", device: fifo))
        let wh = try SourceHarness(wedge, name: "wedge", clock: RunClock(mode: .realtime))
        defer { wh.stop() }
        let typed = Keys.tap(5) + Keys.tap(11) + Keys.enter
        #expect(write(writer, typed, typed.count) == typed.count)
        let keyed = try wh.read(until: { $0.contains { $0.event == "scan.stop" } })
        #expect(keyed.contains { $0["code"] == .string("40") })
        #expect(Self.problems(keyed, w) == [] && keyed.allSatisfy { Self.inOrder($0, w) })
    }
}
