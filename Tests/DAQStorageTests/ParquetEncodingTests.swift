import Testing

@testable import DAQStorage

/// The byte-level pieces, against encodings worked out by hand from the specification.
@Suite("Parquet encodings")
struct ParquetEncodingTests {
    func rle(_ values: [UInt32], width: Int) -> [UInt8] {
        var out: [UInt8] = []
        values.withUnsafeBufferPointer { RLEHybrid.encode($0, bitWidth: width, to: &out) }
        return out
    }

    @Test func aLongRunIsOneRLERun() {
        // Header 10 << 1 = 20, then the value in one byte.
        #expect(rle(Array(repeating: 1, count: 10), width: 1) == [0x14, 0x01])
        // Width 9 takes two bytes for the value, little-endian.
        #expect(rle(Array(repeating: 300, count: 8), width: 9) == [0x10, 0x2C, 0x01])
    }

    @Test func shortRunsAreBitPackedLSBFirst() {
        // One group of eight: header 1 << 1 | 1, then 0,1,0,1,0,1,0,1 → 0b10101010.
        #expect(rle([0, 1, 0, 1, 0, 1, 0, 1], width: 1) == [0x03, 0xAA])
        // Three values padded to a group: 1,2,3 at width 2 → 0b00111001, then zeros.
        #expect(rle([1, 2, 3], width: 2) == [0x03, 0x39, 0x00])
    }

    @Test func aBitPackedRunBorrowsFromTheRunAfterIt() {
        // 3 mixed values then 20 ones: the packed group takes 5 of the ones, the RLE run the other 15.
        #expect(rle([0, 1, 0] + Array(repeating: 1, count: 20), width: 1) == [0x03, 0xFA, 0x1E, 0x01])
    }

    @Test func thriftCompactFieldsAndStructs() {
        var w = ThriftCompactWriter()
        w.field(1, i32: -1)  // delta 1, type 5, zigzag(-1) = 1
        w.field(3, bool: true)  // delta 2, type 1
        w.field(20, i64: 150)  // delta 17 > 15: type 6, then zigzag id 40, zigzag(150) = 300
        w.field(21) { $0.field(1, string: "ab") }
        w.endStruct()
        #expect(w.bytes == [0x15, 0x01, 0x21, 0x06, 0x28, 0xAC, 0x02, 0x1C, 0x18, 0x02, 0x61, 0x62, 0x00, 0x00])
    }

    @Test func aMissingZstdIsNamedWithAFix() {
        let result = ZstdLibrary.load(names: ["/nonexistent/libzstd.so.1"])
        guard case .failure(let error) = result else {
            Issue.record("a library that does not exist was loaded")
            return
        }
        #expect(error.description.contains("libzstd.so.1") && error.description.contains("compression: gzip or none"))
    }
}
