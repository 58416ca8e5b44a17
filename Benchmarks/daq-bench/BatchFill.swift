// batch-fill: the cost of filling batch rows field by field, the way decoding sources do,
// without any decoding: isolates the batch from the decoder in ble-decode's figures.
import DAQCore
import Foundation

func batchFill(rows: Int, typed: Bool) {
    let started = DispatchTime.now().uptimeNanoseconds
    var filled = 0
    var builder = BatchBuilder(capacity: 1024)
    for r in 0..<rows {
        builder.appendRow(uptime: Double(r), timestamp: Double(r)) { row in
            if typed { fillTyped(&row, r) } else { fillBoxed(&row, r) }
        }
        if builder.count == 1024 {
            filled += builder.finish().count
        }
    }
    let seconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
    let how = typed ? "typed setters" : "Value subscript"
    print(
        "batch-fill (\(how)): \(filled) rows in \(fixed(seconds, 3)) s, \(fixed(Double(filled) / seconds / 1e6, 2)) M rows/s, \(fixed(seconds / Double(filled) * 1e9, 0)) ns/row"
    )
}

/// Fourteen fields, two shapes alternating, as boxed values.
private func fillBoxed(_ row: inout BatchBuilder.Row, _ r: Int) {
    row["address"] = .int(1)
    row["address_type"] = .int(2)
    row["event_type"] = .int(3)
    row["rssi"] = .int(-60)
    row["flags"] = .int(6)
    row["manufacturer_id"] = .int(76)
    if r % 2 == 0 {
        row["ibeacon.uuid"] = .int(5)
        row["ibeacon.major"] = .int(1)
        row["ibeacon.minor"] = .int(2)
        row["ibeacon.measured_power"] = .int(-59)
    } else {
        row["ruuvi.temperature"] = .double(21.5)
        row["ruuvi.humidity"] = .double(40)
        row["ruuvi.pressure"] = .int(100_000)
        row["ruuvi.acceleration_x"] = .int(1)
        row["ruuvi.acceleration_y"] = .int(2)
        row["ruuvi.acceleration_z"] = .int(3)
    }
    row["frames"] = .int(1)
    row["data"] = .int(0)
}

/// The same fields through the typed setters, as the BLE decoders write them.
private func fillTyped(_ row: inout BatchBuilder.Row, _ r: Int) {
    row.set("address", int: 1)
    row.set("address_type", int: 2)
    row.set("event_type", int: 3)
    row.set("rssi", int: -60)
    row.set("flags", int: 6)
    row.set("manufacturer_id", int: 76)
    if r % 2 == 0 {
        row.set("ibeacon.uuid", int: 5)
        row.set("ibeacon.major", int: 1)
        row.set("ibeacon.minor", int: 2)
        row.set("ibeacon.measured_power", int: -59)
    } else {
        row.set("ruuvi.temperature", double: 21.5)
        row.set("ruuvi.humidity", double: 40)
        row.set("ruuvi.pressure", int: 100_000)
        row.set("ruuvi.acceleration_x", int: 1)
        row.set("ruuvi.acceleration_y", int: 2)
        row.set("ruuvi.acceleration_z", int: 3)
    }
    row.set("frames", int: 1)
    row.set("data", int: 0)
}
