import DAQCore

/// What each report field holds, as the decoders write it: the one place its type and unit are
/// declared, for ``BLEOutput``.
extension ReportField {
    /// The field's type, unit and a line for `daq plugins describe`. A switch with no default:
    /// a new field does not compile until it is declared here.
    var declaration: (type: DAQCore.FieldType, unit: String?, summary: String) {
        switch self {
        case .address: return (.string, nil, "the advertiser's address, AA:BB:CC:DD:EE:FF")
        case .addressType: return (.string, nil, "public, random, public-identity, random-identity or anonymous")
        case .eventType: return (.string, nil, "the PDU: ADV_IND, SCAN_RSP, EXT_ADV(…), …")
        case .rssi: return (.int, "dBm", "received signal strength; null when the controller has none")
        case .advTxPower: return (.int, "dBm", "TX power an extended report states")
        case .flags: return (.int, nil, "the Flags AD structure")
        case .name: return (.string, nil, "the local name, complete or shortened")
        case .txPower: return (.int, "dBm", "the TX Power Level AD structure")
        case .manufacturerID: return (.int, nil, "company identifier of the manufacturer data")
        case .manufacturerData: return (.string, nil, "manufacturer data after the company identifier, hex")
        case .services: return (.array, nil, "service UUIDs listed, as text")
        case .frames: return (.array, nil, "beacon formats found: ibeacon, eddystone.uid, a decoder's name, …")
        case .errors: return (.array, nil, "what could not be decoded, each with its byte offset")
        case .data: return (.string, nil, "the advertising data, hex")
        case .ibeaconUUID: return (.string, nil, "iBeacon proximity UUID")
        case .ibeaconMajor: return (.int, nil, "iBeacon major")
        case .ibeaconMinor: return (.int, nil, "iBeacon minor")
        case .ibeaconMeasuredPower: return (.int, "dBm", "iBeacon RSSI at 1 m")
        case .altbeaconID: return (.string, nil, "AltBeacon id, 20 bytes hex")
        case .altbeaconID1: return (.string, nil, "its first 16 bytes as a UUID")
        case .altbeaconID2: return (.int, nil, "its next 2 bytes")
        case .altbeaconID3: return (.int, nil, "its last 2 bytes")
        case .altbeaconReferenceRSSI: return (.int, "dBm", "AltBeacon RSSI at 1 m")
        case .altbeaconMfgReserved: return (.int, nil, "the byte reserved for the manufacturer")
        case .altbeaconCompany: return (.int, nil, "company identifier of the AltBeacon")
        case .ruuviTemperature: return (.double, "°C", "Ruuvi temperature")
        case .ruuviHumidity: return (.double, "%", "Ruuvi relative humidity")
        case .ruuviPressure: return (.int, "Pa", "Ruuvi air pressure")
        case .ruuviAccelerationX: return (.int, "mg", "Ruuvi acceleration, x")
        case .ruuviAccelerationY: return (.int, "mg", "Ruuvi acceleration, y")
        case .ruuviAccelerationZ: return (.int, "mg", "Ruuvi acceleration, z")
        case .ruuviBatteryMV: return (.int, "mV", "Ruuvi battery voltage")
        case .ruuviTxPower: return (.int, "dBm", "Ruuvi TX power")
        case .ruuviMovementCounter: return (.int, nil, "Ruuvi movements counted")
        case .ruuviSequence: return (.int, nil, "Ruuvi measurement sequence number")
        case .ruuviMAC: return (.string, nil, "Ruuvi MAC address")
        case .eddystoneRangingData: return (.int, "dBm", "Eddystone-UID TX power at 0 m")
        case .eddystoneNamespace: return (.string, nil, "Eddystone-UID namespace, hex")
        case .eddystoneInstance: return (.string, nil, "Eddystone-UID instance, hex")
        case .eddystoneTxPower: return (.int, "dBm", "Eddystone-URL or -EID TX power at 0 m")
        case .eddystoneURL: return (.string, nil, "Eddystone-URL, expanded")
        case .eddystoneEID: return (.string, nil, "Eddystone-EID ephemeral id, hex")
        case .eddystoneFrameType: return (.int, nil, "type of an Eddystone frame not known")
        case .tlmVersion: return (.int, nil, "Eddystone-TLM version (1: encrypted)")
        case .tlmEncrypted: return (.bool, nil, "whether the TLM is encrypted")
        case .tlmData: return (.string, nil, "encrypted TLM, hex")
        case .tlmBatteryMV: return (.int, "mV", "Eddystone-TLM battery voltage")
        case .tlmTemperature: return (.double, "°C", "Eddystone-TLM temperature")
        case .tlmAdvCount: return (.int, nil, "frames sent since power-up")
        case .tlmUptime: return (.double, "s", "time since power-up")
        }
    }

    /// The field as descriptors carry it.
    var descriptor: FieldDescriptor {
        let d = declaration
        return FieldDescriptor(name, d.type, unit: d.unit)
    }
}
