import DAQCore
import DAQTesting
import Foundation
import Testing

@testable import DAQBLE

/// What each BLE plugin declares against what it emits: every field of every sample declared,
/// with a type that takes its value, in the order a report writes them.
@Suite struct BLEDescriptorTests {
    static let context = PluginContext(componentName: "ble", pipelineName: "test", baseDirectory: "", clock: .virtual)

    /// A declarative decoder, so its fields are declared from configuration.
    static let decoders = """
        decoders:
          - company_id: 0x0059
            name: acme.sensor
            match: "01"
            fields:
              - {name: temperature, offset: 1, type: i16le, scale: 0.01, unit: "°C"}
              - {name: counter, offset: 3, type: u32be}
              - {name: ratio, offset: 7, type: f32le}
        """

    /// One report per record, so that one read of one report shows the order it writes its fields in.
    static let reports: [(type: UInt8, rssi: Int8, data: String)] = [
        (0x03, -60, Vectors.iBeacon), (0x00, -72, Vectors.ruuvi), (0x00, -73, Vectors.ruuviNA),
        (0x03, -50, Vectors.uid), (0x03, -51, Vectors.url), (0x03, -52, Vectors.tlm),
        (0x03, -53, Vectors.tlmNoSensor), (0x03, -54, Vectors.etlm), (0x03, -55, Vectors.eid),
        (0x03, -56, Vectors.altBeacon), (0x03, -57, "03 03 AAFE 04 16 AAFE 40"),
        (0x00, 127, "02 01 06 05 09 4E6F6465 02 0A F4 05 03 0D18 0F18 05 16 0F18 5A01"),
        (0x04, -58, "02 01 06 05 09 4E6F6465 1A FF 4C00"), (0x03, -59, "0F FF 5900 01 2EFB 0000012C 0000C03F 00"),
    ]

    /// A btsnoop capture of every report above, then an extended report, a second apart.
    static func capture() -> String {
        var events = reports.enumerated().map { i, r in
            (1_700_000_000 + Double(i), CaptureWriter.advertisingEvent([(beaconAddress, r.type, r.rssi, hex(r.data))]))
        }
        events.append(
            (
                1_700_000_100,
                CaptureWriter.extendedEvent(
                    address: ruuviAddress, eventType: 0x0001, tx: 8, rssi: -40, data: hex(Vectors.uid))
            ))
        return CaptureWriter.write(CaptureWriter.btsnoop(events), name: "all.log")
    }

    /// `problems` of `samples` against `d`: a field not declared (but service data, named by
    /// UUIDs no configuration knows), or declared with a type that does not take its value.
    static func problems(_ samples: [Sample], _ d: StreamDescriptor) -> [String] {
        DescriptorFit.problems(samples, d) { $0.hasPrefix("service_data.") }
    }

    static func inOrder(_ s: Sample, _ d: StreamDescriptor) -> Bool { DescriptorFit.inOrder(s, d) }

    func source(_ path: String, extra: String = "") throws -> BLEReplaySource {
        let config = try PluginConfigLoader.decode(
            BLEReplaySource.Configuration.self, yaml: "path: \"\(path)\"\n" + extra)
        return try BLEReplaySource(configuration: config, context: Self.context)
    }

    func replay(_ path: String, extra: String = "") throws -> (StreamDescriptor, SourceHarness) {
        let s = try source(path, extra: extra)
        return (try s.describe(context: Self.context), try SourceHarness(s, name: "ble"))
    }

    @Test func replayDeclaresEveryFieldItWrites() throws {
        let path = Self.capture()
        let (d, h) = try replay(path, extra: Self.decoders)
        let samples = try h.read(batchSize: 1).samples
        #expect(samples.count == Self.reports.count + 1)
        #expect(Self.problems(samples, d) == [])
        // Each field the decoders can write is met once in this capture: none is declared idly.
        let seen = Set(samples.flatMap(\.fields.keys))
        #expect(Set(d.fields.map(\.name)).subtracting(seen) == [])
        #expect(samples.allSatisfy { Self.inOrder($0, d) }, "\(samples.map(\.fields.keys))")
        #expect(d.fields.prefix(4).map(\.name) == ["address", "address_type", "event_type", "rssi"])
        #expect(d.fields.suffix(4).map(\.name) == ["services", "frames", "errors", "data"])
        #expect(d.field("acme.sensor.counter")?.type == .int && d.field("acme.sensor.ratio")?.type == .double)
        #expect(d.unit(of: "acme.sensor.temperature") == "°C" && d.unit(of: "rssi") == "dBm")
        #expect(d.unit(of: "ruuvi.pressure") == "Pa" && d.unit(of: "eddystone.tlm.uptime_s") == "s")
        // The capture's own dates, whatever the run clock.
        #expect(d.timeBase == .recorded && d.rate == .irregular)
        #expect(samples.first?.timestamp == 1_700_000_000)
        #expect(d.origin == StreamOrigin(plugin: "ble.replay", file: path))
    }

    @Test func theShippedCaptureFitsItsDescriptor() throws {
        let (d, h) = try replay(DiscoveryPipelineTests.capture)
        let samples = try h.read(batchSize: 7).samples
        #expect(samples.count > 100)
        #expect(Self.problems(samples, d) == [])
        #expect(samples.allSatisfy { $0.timestamp > 1e9 })
    }

    @Test func liveScanDeclaresWithoutTheAdapterAndEmitsWhatItDeclared() throws {
        let config = try PluginConfigLoader.decode(
            BLEScanSource.Configuration.self, yaml: "adapter: hci1\n" + Self.decoders)
        let untouched = try BLEScanSource(
            configuration: config, context: Self.context,
            open: {
                Issue.record("describe opened the adapter")
                return -1
            })
        let d = try untouched.describe(context: Self.context)
        #expect(d.timeBase == .run && d.rate == .irregular)
        #expect(d.origin == StreamOrigin(plugin: "ble.scan", device: "hci1") && d.metadata["scan"] == "passive")
        #expect(d.fields == (try source("x.log", extra: Self.decoders).describe(context: Self.context)).fields)

        let fake = try FakeController()
        defer { fake.close() }
        let fd = dup(fake.host)
        let source = try BLEScanSource(configuration: config, context: Self.context, open: { fd })
        let h = try SourceHarness(source, name: "scan", clock: RunClock(mode: .realtime))
        // One report a read: a field a later report brings first joins a batch's columns at their end.
        var samples: [Sample] = []
        for (address, type, rssi, data) in [
            (beaconAddress, UInt8(0x03), Int8(-60), Vectors.iBeacon), (ruuviAddress, 0x00, -72, Vectors.ruuvi),
        ] {
            fake.send([0x04] + CaptureWriter.advertisingEvent([(address, type, rssi, hex(data))]))
            samples += try h.read(until: { !$0.isEmpty })
        }
        h.stop()
        #expect(samples.count == 2 && Self.problems(samples, d) == [])
        #expect(samples.allSatisfy { Self.inOrder($0, d) })
    }

    @Test(arguments: ["scan_duration: 10 s", "scan_duration: 10 s\npause_between: 5 s\nvalues: last"])
    func discoveryDeclaresItsRecordsAndEvents(config: String) throws {
        let (input, source) = try replay(DiscoveryPipelineTests.capture)
        let h = try TransformHarness(DiscoveryTransform.self, config: config, name: "discovery")
        let d = try h.transform.describe(input: input, context: Self.context)
        let reports = try source.read().samples
        var out: [Sample] = []
        for start in stride(from: 0, to: reports.count, by: 64) {
            out += try h.push(Array(reports[start..<min(start + 64, reports.count)]))
        }
        out += try h.finish()
        let records = out.filter { $0.kind == .data }
        let events = out.filter { $0.kind == .event }
        #expect(!records.isEmpty && !events.isEmpty)
        #expect(Self.problems(out, d) == [])
        // A record as ModuleRecord writes it, before a batch lays its columns out: its own
        // fields, then the report's it carries, in the input's order.
        let report = try #require(reports.first { $0["ibeacon.uuid"] != nil })
        var module = ModuleRecord(id: "m", address: "a", timestamp: report.timestamp, rssi: -60)
        module.add(report, rssi: -60, keep: .first)
        let record = module.sample(windowEnd: 10, startDate: 0, exponent: 2, stream: "discovery")
        let own = DiscoveryOutput.record.map(\.name)
        #expect(Array(record.fields.keys.prefix(own.count)) == own && Self.inOrder(record, d))
        #expect(record.fields.keys.contains("ibeacon.uuid") && Self.problems([record], d) == [])
        // The record keeps tx_power as a double, where the reports have an integer.
        #expect(input.field("tx_power")?.type == .int && d.field("tx_power")?.type == .double)
        #expect(d.field("frames")?.type == .int && d.field("data") == nil && d.field("rssi") == nil)
        #expect(d.field("ibeacon.major") == input.field("ibeacon.major"))
        let period = config.contains("pause") ? 15.0 : 10.0
        #expect(d.rate == .every(period) && d.timeBase == .recorded && d.origin == input.origin)
        if config.contains("pause") { #expect(events.contains { $0["event"] == .string("ble.pause") }) }
    }
}
