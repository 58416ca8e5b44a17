import DAQCore
import Testing

@testable import DAQBLE

/// The batches ``ReportBatch`` lays out column by column hold, row by row, what the same
/// reports decode to by name, whatever the mix of shapes, nulls and repeated fields.
@Suite(.timeLimit(.minutes(20))) struct ReportColumnsTests {
    /// Shapes side by side: beacons, "not available" values (nulls in number columns), a
    /// shortened then complete name (a field written twice in one report), two manufacturer
    /// structures, service data named at run time, errors, a declarative decoder, no data.
    static let payloads: [String] = [
        Vectors.iBeacon, Vectors.ruuvi, Vectors.ruuviNA, Vectors.uid, Vectors.url, Vectors.tlm, Vectors.tlmNoSensor,
        Vectors.etlm, Vectors.eid, Vectors.altBeacon, "03 08 4E6F 05 09 4E6F6465", "05 FF 5900 0201 05 FF 4C00 0102",
        "02 01 06  05 16 0F18 5A01  05 20 01020304 AA", "02 01 06 1A FF 4C00",
        "0F FF 5900 01 2EFB 0000012C 0000C03F 00", "",
    ]

    static let decoder = AdvertisingDecoder(custom: [
        ManufacturerDecoder(
            companyID: 0x59, name: "acme", match: "01",
            fields: [
                .init(name: "t", offset: 1, type: .i16le, scale: 0.01, unit: nil),
                .init(name: "n", offset: 3, type: .u32be, scale: nil, unit: nil),
            ])
    ])

    @Test(arguments: [1, 3, 7, 100])
    func columnsHoldWhatTheReportsDecodeToByName(batchLength: Int) {
        var reports = ReportBatch(decoder: Self.decoder)
        var expected: [Fields] = []
        var batches: [Batch] = []
        for i in 0..<120 {
            let data = hex(Self.payloads[(i * 7) % Self.payloads.count])
            let address: [UInt8] = [UInt8(i % 5), 0x11, 0x22, 0x33, 0x44, 0x55]
            let rssi: Int8? = i % 4 == 0 ? nil : -60
            data.withUnsafeBytes { d in
                address.withUnsafeBytes { a in
                    let r = LEReport(
                        timestamp: Double(i), address: a, addressType: 1, eventType: "ADV_IND", rssi: rssi,
                        txPower: nil,
                        data: d)
                    expected.append(r.fields(decoder: Self.decoder))
                    reports.append(r)
                }
            }
            if (i + 1) % batchLength == 0 {
                var b = Batch()
                reports.flush(into: &b)
                batches.append(b)
            }
        }
        var last = Batch()
        reports.flush(into: &last)
        if !last.isEmpty { batches.append(last) }

        var row = 0
        for b in batches {
            for i in 0..<b.count {
                // Every column of the batch: the report's value, or null where it has none.
                for c in b.columns {
                    #expect(c[i] == (expected[row][c.name] ?? .null), "report \(row), \(c.name)")
                }
                for (key, _) in expected[row].pairs {
                    #expect(b.columnIndex(key) != nil, "report \(row) lost \(key)")
                }
                row += 1
            }
        }
        #expect(row == 120)
    }
}
