import DAQCore

/// Every field the BLE decoders write under a fixed name, by number.
///
/// A batch finds the column of a field by indexing a table with its number, once per batch
/// and field, instead of comparing the name with its columns' names for every report. Fields
/// named at run time (service data by UUID, declarative decoders) go by name instead.
enum ReportField: Int, CaseIterable {
    case address, addressType, eventType, rssi, advTxPower
    case flags, name, txPower, manufacturerID, manufacturerData
    case services, frames, errors, data
    case ibeaconUUID, ibeaconMajor, ibeaconMinor, ibeaconMeasuredPower
    case altbeaconID, altbeaconID1, altbeaconID2, altbeaconID3, altbeaconReferenceRSSI, altbeaconMfgReserved,
        altbeaconCompany
    case ruuviTemperature, ruuviHumidity, ruuviPressure, ruuviAccelerationX, ruuviAccelerationY, ruuviAccelerationZ
    case ruuviBatteryMV, ruuviTxPower, ruuviMovementCounter, ruuviSequence, ruuviMAC
    case eddystoneRangingData, eddystoneNamespace, eddystoneInstance, eddystoneTxPower, eddystoneURL, eddystoneEID
    case eddystoneFrameType
    case tlmVersion, tlmEncrypted, tlmData, tlmBatteryMV, tlmTemperature, tlmAdvCount, tlmUptime

    /// The field's name in samples (a contract: pipelines and logs name fields so).
    ///
    /// A switch of literals rather than a table: literals need no allocation and no lazy
    /// initialization check.
    var name: String {
        switch self {
        case .address: return "address"
        case .addressType: return "address_type"
        case .eventType: return "event_type"
        case .rssi: return "rssi"
        case .advTxPower: return "adv_tx_power"
        case .flags: return "flags"
        case .name: return "name"
        case .txPower: return "tx_power"
        case .manufacturerID: return "manufacturer_id"
        case .manufacturerData: return "manufacturer_data"
        case .services: return "services"
        case .frames: return "frames"
        case .errors: return "errors"
        case .data: return "data"
        case .ibeaconUUID: return "ibeacon.uuid"
        case .ibeaconMajor: return "ibeacon.major"
        case .ibeaconMinor: return "ibeacon.minor"
        case .ibeaconMeasuredPower: return "ibeacon.measured_power"
        case .altbeaconID: return "altbeacon.id"
        case .altbeaconID1: return "altbeacon.id1"
        case .altbeaconID2: return "altbeacon.id2"
        case .altbeaconID3: return "altbeacon.id3"
        case .altbeaconReferenceRSSI: return "altbeacon.reference_rssi"
        case .altbeaconMfgReserved: return "altbeacon.mfg_reserved"
        case .altbeaconCompany: return "altbeacon.company"
        case .ruuviTemperature: return "ruuvi.temperature"
        case .ruuviHumidity: return "ruuvi.humidity"
        case .ruuviPressure: return "ruuvi.pressure"
        case .ruuviAccelerationX: return "ruuvi.acceleration_x"
        case .ruuviAccelerationY: return "ruuvi.acceleration_y"
        case .ruuviAccelerationZ: return "ruuvi.acceleration_z"
        case .ruuviBatteryMV: return "ruuvi.battery_mv"
        case .ruuviTxPower: return "ruuvi.tx_power"
        case .ruuviMovementCounter: return "ruuvi.movement_counter"
        case .ruuviSequence: return "ruuvi.sequence"
        case .ruuviMAC: return "ruuvi.mac"
        case .eddystoneRangingData: return "eddystone.ranging_data"
        case .eddystoneNamespace: return "eddystone.namespace"
        case .eddystoneInstance: return "eddystone.instance"
        case .eddystoneTxPower: return "eddystone.tx_power"
        case .eddystoneURL: return "eddystone.url"
        case .eddystoneEID: return "eddystone.eid"
        case .eddystoneFrameType: return "eddystone.frame_type"
        case .tlmVersion: return "eddystone.tlm.version"
        case .tlmEncrypted: return "eddystone.tlm.encrypted"
        case .tlmData: return "eddystone.tlm.data"
        case .tlmBatteryMV: return "eddystone.tlm.battery_mv"
        case .tlmTemperature: return "eddystone.tlm.temperature"
        case .tlmAdvCount: return "eddystone.tlm.adv_count"
        case .tlmUptime: return "eddystone.tlm.uptime_s"
        }
    }
}

/// Where the decoders write a report's fields: a row of a ``ReportColumns`` batch, or any
/// ``FieldWriter`` through ``NamedFields``. Writing a field again replaces its value and keeps
/// its place.
protocol ReportWriter {
    mutating func set(_ field: ReportField, int value: Int64)
    mutating func set(_ field: ReportField, double value: Double)
    mutating func set(_ field: ReportField, string value: String)
    /// Any other value: null, a bool, an array.
    mutating func set(_ field: ReportField, _ value: Value)
    /// A field named at run time.
    mutating func set(named name: String, _ value: Value)
    /// Whether the report has written `field` so far.
    func has(_ field: ReportField) -> Bool
}

extension ReportWriter {
    /// Writes `value`, or null when the beacon says it has none (a "not available" code).
    @inline(__always)
    mutating func set(_ field: ReportField, int value: Int64?) {
        if let value { set(field, int: value) } else { set(field, Value.null) }
    }

    @inline(__always)
    mutating func set(_ field: ReportField, double value: Double?) {
        if let value { set(field, double: value) } else { set(field, Value.null) }
    }

    @inline(__always)
    mutating func set(_ field: ReportField, string value: String?) {
        if let value { set(field, string: value) } else { set(field, Value.null) }
    }
}

/// A ``ReportWriter`` over any ``FieldWriter`` (a `Fields`, a batch row), writing by name.
struct NamedFields<W: FieldWriter>: ReportWriter {
    var base: W

    mutating func set(_ field: ReportField, int value: Int64) { base.set(field.name, int: value) }
    mutating func set(_ field: ReportField, double value: Double) { base.set(field.name, double: value) }
    mutating func set(_ field: ReportField, string value: String) { base.set(field.name, string: value) }
    mutating func set(_ field: ReportField, _ value: Value) { base[field.name] = value }
    mutating func set(named name: String, _ value: Value) { base[name] = value }
    func has(_ field: ReportField) -> Bool { base[field.name] != nil }
}
