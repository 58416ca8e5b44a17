import DAQCore
import Foundation

// Fuzz target over the BLE decoder, the HCI report parser and the capture readers.
//
// Built for libFuzzer (scripts/fuzz-ble.sh):
//   swift build --product ble-fuzz -Xswiftc -sanitize=fuzzer,address -Xswiftc -DFUZZING
// Built normally it replays the files given as arguments through the same entry, so a crash
// found by the fuzzer can be reproduced in a debugger.
@testable import DAQBLE

/// One input: as advertising data, as an HCI event, and as a capture file.
func fuzzOne(_ bytes: UnsafeRawBufferPointer) {
    var fields = Fields()
    AdvertisingDecoder(custom: fuzzDecoders).decode(bytes, into: &fields)
    try? HCIEvents.reports(in: bytes, timestamp: 0) { report in _ = report.fields(decoder: AdvertisingDecoder()) }
    try? HCIEvents.linkLayer(bytes, rssi: -50, timestamp: 0) { report in
        _ = report.fields(decoder: AdvertisingDecoder())
    }
    let path = fuzzPath
    guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else { return }
    // Reports also go into batches the way the sources fill them, through the column buffers
    // (unsafe pointers) that ble.replay and ble.scan write; a batch every few reports, so
    // buffers are reused, emptied and grown within one input.
    var reports = ReportBatch(decoder: AdvertisingDecoder(custom: fuzzDecoders))
    var batch = Batch()
    if let reader = try? CaptureReader(path: path) {
        while (try? reader.read(limit: 64, { reports.append($0) })) == true {
            reports.flush(into: &batch)
        }
    }
    try? HCIEvents.reports(in: bytes, timestamp: 0) { reports.append($0, uptime: 0) }
    reports.flush(into: &batch)
    // Every value read back, so a column laid out wrong is read out of bounds under ASan.
    for column in batch.columns {
        for row in 0..<batch.count { _ = column[row] }
    }
}

let fuzzDecoders = [
    ManufacturerDecoder(
        companyID: 0x0059, name: "f", match: "01",
        fields: ManufacturerDecoder.FieldType.allCases.enumerated().map {
            ManufacturerDecoder.Field(
                name: $0.element.rawValue, offset: $0.offset * 3, type: $0.element, scale: nil, unit: nil)
        })
]
let fuzzPath = NSTemporaryDirectory() + "ble-fuzz-\(getpid()).bin"
