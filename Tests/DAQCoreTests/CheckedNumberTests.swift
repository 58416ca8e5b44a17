import DAQCore
import Testing

/// Numbers from outside become `Int`s through checks that throw, never trap.
@Suite struct CheckedNumberTests {
    @Test(arguments: [
        (UInt64.max, "the count is 18446744073709551615; expected from 0 to 9223372036854775807"),
        (UInt64(1) << 63, "the count is 9223372036854775808; expected from 0 to 9223372036854775807"),
    ])
    func anUnsignedNumberPastInt64IsRefused(value: UInt64, message: String) {
        let error = #expect(throws: InputRangeError.self) { try Int64(checked: value, "the count", in: 0...Int64.max) }
        #expect(error?.description == message)
    }

    @Test func aNumberThatFitsComesThrough() throws {
        #expect(try Int64(checked: UInt64(Int64.max), "n") == Int64.max)
        #expect(try Int(checked: UInt8(7), "n", in: 1...10) == 7)
        #expect(try Int(checked: 29.6, "rate") == 30)
        #expect(try Int(checked: 2.5, "rate", rounding: .down) == 2)
    }

    @Test(arguments: [Double.infinity, -.infinity, .nan, 1e300, -1e300, 9.3e18])
    func aDoubleThatIsNoIntIsRefused(value: Double) {
        #expect(throws: InputRangeError.self) { try Int(checked: value, "Sample Rate") }
    }

    @Test func aRangeIsKeptAndNamed() {
        let error = #expect(throws: InputRangeError.self) {
            try Int(checked: 1e300, "info.txt's Sample Rate", in: 1...10_000)
        }
        #expect(error?.description == "info.txt's Sample Rate is 1e+300; expected from 1 to 10000")
        #expect(throws: InputRangeError.self) { try Int(checked: 0, "n", in: 1...10) }
        #expect(throws: InputRangeError.self) { try Int(checked: -1.0, "n", in: 0...10) }
    }

    @Test func sumsAndProductsThatOverflowThrow() throws {
        #expect(try Int64(5).checkedAdding(6, "offset + size") == 11)
        #expect(try Int(6).checkedMultiplied(by: 7, "n") == 42)
        let error = #expect(throws: InputRangeError.self) { try Int64.max.checkedAdding(1, "offset + size") }
        #expect(
            error?.description
                == "offset + size is 9223372036854775807 + 1; expected from -9223372036854775808 to 9223372036854775807"
        )
        #expect(throws: InputRangeError.self) { try Int.min.checkedMultiplied(by: -1, "n") }
    }
}
