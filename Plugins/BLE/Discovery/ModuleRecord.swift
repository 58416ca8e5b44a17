import DAQCore
import Foundation

/// What one module advertised within one discovery window.
struct ModuleRecord {
    var id: String
    var address: String
    var firstSeen: Double
    var lastSeen: Double
    var rssiLast: Double
    var rssiSum = 0.0
    var rssiMax: Double
    var frames = 0
    /// Frame types in the order first seen: a module sending iBeacon and Eddystone-TLM has both.
    var frameTypes: [String] = []
    var txPower: Double?
    /// RSSI expected at 1 m, from the beacon's own calibration.
    var measuredPower: Double?
    /// Every decoded field the module sent in the window: its first value or its latest, as
    /// `values` says.
    var fields = Fields()

    init(id: String, address: String, timestamp: Double, rssi: Double) {
        self.id = id
        self.address = address
        firstSeen = timestamp
        lastSeen = timestamp
        rssiLast = rssi
        rssiMax = rssi
    }

    mutating func add(_ s: Sample, rssi: Double, keep: KeptValues) {
        lastSeen = max(lastSeen, s.timestamp)
        rssiLast = rssi
        rssiSum += rssi
        rssiMax = max(rssiMax, rssi)
        frames += 1
        if case .array(let types)? = s[DiscoveryFields.frames] {
            for case .string(let t) in types where !frameTypes.contains(t) { frameTypes.append(t) }
        }
        if let tx = s[DiscoveryFields.txPower]?.doubleValue, keep == .last || txPower == nil { txPower = tx }
        if let m = DiscoveryFields.measuredPower(s), keep == .last || measuredPower == nil { measuredPower = m }
        for (k, v) in s.fields.pairs where !DiscoveryFields.perReport.contains(k) && !v.isNull {
            if keep == .last || fields[k] == nil { fields[k] = v }
        }
    }

    /// Log-distance path loss: d = 10^((P₁ₘ − RSSI) / (10·n)), from the mean RSSI. Without a
    /// calibrated 1 m power the advertised TX power less 41 dB (the usual 0 m → 1 m loss) stands in.
    func distance(exponent n: Double) -> Double? {
        guard let reference = measuredPower ?? txPower.map({ $0 - 41 }), frames > 0 else { return nil }
        let mean = rssiSum / Double(frames)
        return pow(10, (reference - mean) / (10 * n))
    }

    func sample(windowEnd: Double, startDate: Double, exponent: Double, stream: String) -> Sample {
        var f: Fields = [
            "module": .string(id), "address": .string(address),
            "first_seen": .double(firstSeen), "last_seen": .double(lastSeen),
            "rssi_last": .double(rssiLast), "rssi_mean": .double(rssiSum / Double(max(frames, 1))),
            "rssi_max": .double(rssiMax),
            "frames": .int(Int64(frames)), "frame_types": .array(frameTypes.map(Value.string)),
        ]
        f["tx_power"] = txPower.map(Value.double) ?? .null
        f["measured_power"] = measuredPower.map(Value.double) ?? .null
        f["distance_m"] = distance(exponent: exponent).map { .double(($0 * 100).rounded() / 100) } ?? .null
        for (k, v) in fields.pairs where f[k] == nil { f[k] = v }
        return Sample(stream: stream, timestamp: startDate + windowEnd, uptime: windowEnd, fields: f)
    }
}

/// The report fields discovery reads; one place, so the decoder's naming is followed everywhere.
enum DiscoveryFields {
    static let address = "address"
    static let rssi = "rssi"
    static let txPower = "tx_power"
    static let frames = "frames"
    /// Fields that describe one report, not the module: not merged into the record.
    static let perReport: Set<String> = ["rssi", "address", "frames", "raw", "errors", "event_type", "data"]

    /// A stable identity for `by`, or the address when the report carries no such identity.
    static func identity(_ s: Sample, by: IdentifyBy) -> String? {
        let ibeacon = s["ibeacon.uuid"]?.stringValue.map { uuid in
            "ibeacon:\(uuid):\(s["ibeacon.major"]?.intValue ?? 0):\(s["ibeacon.minor"]?.intValue ?? 0)"
        }
        let eddystone = s["eddystone.namespace"]?.stringValue.map { ns in
            "eddystone:\(ns):\(s["eddystone.instance"]?.stringValue ?? "")"
        }
        let address = s[Self.address]?.stringValue
        switch by {
        case .address: return address
        case .ibeacon: return ibeacon ?? address
        case .eddystone: return eddystone ?? address
        case .auto: return ibeacon ?? eddystone ?? address
        }
    }

    /// RSSI at 1 m as the beacon states it: iBeacon measured power, AltBeacon reference RSSI,
    /// or Eddystone's ranging data (at 0 m) less 41 dB.
    static func measuredPower(_ s: Sample) -> Double? {
        if let p = s["ibeacon.measured_power"]?.doubleValue { return p }
        if let p = s["altbeacon.reference_rssi"]?.doubleValue { return p }
        if let p = s["eddystone.ranging_data"]?.doubleValue ?? s["eddystone.tx_power"]?.doubleValue { return p - 41 }
        return nil
    }
}
