import DAQCore
import Testing

/// Boolean columns (`nonwear` flags) kept unboxed: read, appended, sliced and filtered as the
/// boxed `.bool` values they stand for.
@Suite(.timeLimit(.minutes(20))) struct ColumnBoolTests {
    private func isBools(_ column: Column?) -> Bool {
        if case .bools = column?.storage { return true }
        return false
    }

    @Test func boolValuesAreStoredUnboxedAndReadBackAsBools() {
        let column = Column(name: "nonwear", values: [.bool(true), .bool(false), .bool(true)])
        #expect(isBools(column))
        #expect(column.plainBools == [true, false, true])
        #expect(column.boxedValues == [.bool(true), .bool(false), .bool(true)])
        #expect(column[1] == .bool(false))
        #expect(column.double(at: 0) == nil)
        #expect(column.slice(1..<3).boxedValues == [.bool(false), .bool(true)])
        #expect(column.filtered([true, false, true], kept: 2).plainBools == [true, true])
    }

    @Test func appendingAnotherTypeOrAnAbsentRowBoxesTheColumnWithItsValues() {
        var column = Column(name: "flag", bools: [true])
        column.append(.bool(false))
        #expect(column.plainBools == [true, false])
        column.append(.int(3))
        #expect(!isBools(column))
        #expect(column.boxedValues == [.bool(true), .bool(false), .int(3)])

        var sparse = Column(name: "flag", bools: [true])
        sparse.appendAbsent()
        #expect(sparse.plainBools == nil)
        #expect(sparse.isAbsent(1) && !sparse.isAbsent(0))
        #expect(sparse.boxedValues == [.bool(true), .null])
    }

    @Test func aBoolAppendedToAnEmptyColumnStartsUnboxedStorage() {
        var column = Column(name: "partial", values: [])
        column.append(.bool(false))
        column.append(.bool(true))
        #expect(isBools(column))
        column.set(.bool(false), at: 1)
        #expect(column.plainBools == [false, false])
        column.set(.string("x"), at: 0)
        #expect(column.boxedValues == [.string("x"), .bool(false)])
    }

    @Test func appendingColumnsKeepsBothSidesValuesAndAbsences() {
        var column = Column(name: "f", bools: [true, false])
        column.append(contentsOf: Column(name: "f", bools: [false]))
        #expect(column.plainBools == [true, false, false])
        column.append(contentsOf: Column(name: "f", values: [.null, .bool(true)], absent: [true, false]))
        #expect(column.boxedValues == [.bool(true), .bool(false), .bool(false), .null, .bool(true)])
        #expect((0..<5).map(column.isAbsent) == [false, false, false, true, false])
        column.append(contentsOf: Column(name: "f", doubles: [1.5]))
        #expect(column.boxedValues.last == .double(1.5))
        #expect(column.count == 6 && !column.isAbsent(5))
    }
}
