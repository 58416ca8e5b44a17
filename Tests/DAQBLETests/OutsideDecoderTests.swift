import DAQCore
import DAQTesting
import Foundation
import Testing

@testable import DAQBLE

/// Advertising data decoded by `ble.replay` against readers others wrote: beacontools (iBeacon,
/// Eddystone) and ruuvitag-sensor (Ruuvi RAWv2), from PyPI, through
/// `Tests/Fixtures/ble/decode-ads.py`. On the project's capture (`recordings/beacons.btsnoop`)
/// and on the specifications' vectors, every field they decode is ours, with the same value.
@Suite(.timeLimit(.minutes(20)))
struct OutsideDecoderTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The frame kinds they read, named as ours are in `frames`: every kind but AltBeacon's.
    static let kinds: Set<String> = [
        "ibeacon", "eddystone.uid", "eddystone.url", "eddystone.tlm", "eddystone.eid", "ruuvi.rawv2",
    ]

    /// Every report `ble.replay` reads from `path`.
    static func replay(_ path: String) throws -> [Sample] {
        let h = try SourceHarness(BLEReplaySource.self, config: "path: \"\(path)\"", name: "ble")
        let (samples, status) = try h.read()
        #expect(status == .finished)
        return samples
    }

    /// What the outside readers make of each report's advertising data, in order.
    static func theirs(_ reports: [Sample]) throws -> [(kinds: [String], fields: Fields)] {
        let input = reports.map { "\"\($0["data"]?.stringValue ?? "")\"\n" }.joined()
        let r = try Process.runToEnd(
            "python3", [repository.appendingPathComponent("Tests/Fixtures/ble/decode-ads.py").path],
            input: Data(input.utf8), timeout: 300)
        try #require(
            r.status == 0,
            "decode-ads.py failed (scripts/test.sh installs beacontools==2.1.0 and ruuvitag-sensor==4.1.0 with pip): \(r.errors.suffix(1500))"
        )
        return try r.output.split(separator: "\n").map { line in
            guard case .object(let o) = try JSONParser.parse(Array(line.utf8)),
                case .array(let kinds)? = o["kinds"], case .object(let fields)? = o["fields"]
            else { throw CocoaError(.coderReadCorrupt) }
            return (kinds.compactMap(\.stringValue), fields)
        }
    }

    /// Numbers compare as numbers (an int of theirs may be a double of ours), the rest exactly.
    static func same(_ ours: Value?, _ theirs: Value) -> Bool {
        if let a = ours?.doubleValue, let b = theirs.doubleValue { return abs(a - b) <= 1e-9 * max(1, abs(b)) }
        return ours == theirs
    }

    /// Compares every report; returns how many frames of each kind they decoded.
    static func compare(_ reports: [Sample], _ what: String) throws -> [String: Int] {
        let decoded = try theirs(reports)
        try #require(decoded.count == reports.count, "\(what): \(decoded.count) answers for \(reports.count) reports")
        var counts: [String: Int] = [:]
        for (ours, theirs) in zip(reports, decoded) {
            let data = ours["data"]?.stringValue ?? ""
            for kind in theirs.kinds { counts[kind, default: 0] += 1 }
            // The frames they find are the frames we find, bar the kinds they do not read.
            guard case .array(let frames)? = ours["frames"] ?? .array([]) else {
                Issue.record("\(what) \(data): frames is \(ours["frames"] ?? .null)")
                continue
            }
            let ourFrames = Set(frames.compactMap(\.stringValue))
            #expect(
                ourFrames.intersection(Self.kinds) == Set(theirs.kinds),
                "\(what) \(data): ours \(ourFrames), theirs \(theirs.kinds)")
            for (key, value) in theirs.fields.pairs {
                #expect(same(ours[key], value), "\(what) \(data): \(key) is \(ours[key] ?? .null) here, \(value) there")
            }
        }
        return counts
    }

    @Test func theProjectsCaptureDecodesAsTheyDecodeIt() throws {
        let reports = try Self.replay(Self.repository.appendingPathComponent("recordings/beacons.btsnoop").path)
        let counts = try Self.compare(reports, "beacons.btsnoop")
        // Every kind the capture holds (it has no Eddystone-URL) was compared: each has frames they decoded.
        #expect(Set(counts.keys) == ["ibeacon", "eddystone.uid", "eddystone.tlm", "ruuvi.rawv2"], "\(counts)")
    }

    @Test func theSpecificationVectorsDecodeAsTheyDecodeThem() throws {
        let vectors = [
            Vectors.iBeacon, Vectors.uid, Vectors.url, Vectors.tlm, Vectors.tlmNoSensor, Vectors.etlm, Vectors.eid,
            Vectors.altBeacon, Vectors.ruuvi, Vectors.ruuviNA,
        ]
        let events = vectors.enumerated().map { i, v in
            (time: Double(i), event: CaptureWriter.advertisingEvent([(beaconAddress, 0x03, -60, hex(v))]))
        }
        let reports = try Self.replay(CaptureWriter.write(CaptureWriter.btsnoop(events), name: "vectors.log"))
        let counts = try Self.compare(reports, "vectors")
        #expect(
            counts == [
                "ibeacon": 1, "eddystone.uid": 1, "eddystone.url": 1, "eddystone.tlm": 3, "eddystone.eid": 1,
                "ruuvi.rawv2": 2,
            ])
    }
}
