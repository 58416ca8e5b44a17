// batch-fill: the cost of filling batch rows field by field, the way decoding sources do,
// without any decoding: isolates the batch from the decoder in ble-decode's figures.
import DAQCore
import Foundation

func batchFill(rows: Int) {
    let started = DispatchTime.now().uptimeNanoseconds
    var filled = 0
    var builder = BatchBuilder(capacity: 1024)
    for r in 0..<rows {
        builder.appendRow(uptime: Double(r), timestamp: Double(r)) { row in
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
        if builder.count == 1024 {
            filled += builder.finish().count
        }
    }
    let seconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
    print("batch-fill: \(filled) rows in \(fixed(seconds, 3)) s, \(fixed(Double(filled) / seconds / 1e6, 2)) M rows/s, \(fixed(seconds / Double(filled) * 1e9, 0)) ns/row")
}
