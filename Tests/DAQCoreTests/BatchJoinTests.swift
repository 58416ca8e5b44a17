import DAQCore
import Testing

/// Joining many batches into one (`append(contentsOf: [Batch])`) and appending rows by column
/// (`appendRows`): the same rows and columns as appending them one at a time.
@Suite(.timeLimit(.minutes(20))) struct BatchJoinTests {
    /// A batch of `n` rows from row `first`, with a double, an int, a bool and a boxed column.
    private func piece(_ first: Int, _ n: Int, stream: String = "s") -> Batch {
        let rows = first..<(first + n)
        var b = Batch(stream: stream)
        b.appendRows(
            uptimes: rows.map { Double($0) }, timestamps: rows.map { 1000 + Double($0) },
            stepPaths: rows.map { "step\($0 % 2)" }, kinds: rows.map { _ in .data })
        b.setColumn(Column(name: "x", doubles: rows.map { Double($0) / 10 }))
        b.setColumn(Column(name: "n", ints: rows.map { Int64($0) }))
        b.setColumn(Column(name: "flag", bools: rows.map { $0 % 3 == 0 }))
        b.setColumn(Column(name: "tag", values: rows.map { $0 % 2 == 0 ? .string("e\($0)") : .null }))
        return b
    }

    private func oneByOne(_ pieces: [Batch]) -> Batch {
        var out = Batch(stream: "out")
        for p in pieces { out.append(contentsOf: p) }
        return out
    }

    @Test func joiningPiecesGivesTheRowsAppendingThemOneByOneGives() {
        let pieces = [piece(0, 3), piece(3, 1), piece(4, 5)]
        var joined = Batch(stream: "out")
        joined.append(contentsOf: pieces)
        let expected = oneByOne(pieces)
        #expect(joined.count == 9 && joined.stream == "out")
        #expect(joined.uptimes == expected.uptimes && joined.timestamps == expected.timestamps)
        #expect(joined.stepPaths == expected.stepPaths && joined.kinds == expected.kinds)
        #expect(joined.columns.map(\.name) == ["x", "n", "flag", "tag"])
        #expect(joined.samples == expected.samples)
        #expect(joined.column("flag")?.plainBools == (0..<9).map { $0 % 3 == 0 })
        #expect(joined.column("x")?.plainDoubles == (0..<9).map { Double($0) / 10 })
    }

    @Test func piecesWithOtherColumnsOrANonEmptyBatchAreAlignedByName() {
        var odd = piece(3, 2)
        odd.removeColumn("n")
        odd.setColumn(Column(name: "extra", doubles: [7, 8]))
        let pieces = [piece(0, 3), odd, piece(5, 1)]
        var joined = Batch(stream: "out")
        joined.append(contentsOf: pieces)
        #expect(joined.samples == oneByOne(pieces).samples)
        #expect(joined.samples[3].fields["n"] == nil && joined.samples[3].fields["extra"] == .double(7))

        var started = piece(100, 1)
        started.append(contentsOf: [piece(0, 2), piece(2, 2)])
        #expect(started.uptimes == [100, 0, 1, 2, 3])
        #expect(started.column("flag")?.plainBools == [false, true, false, false, true])
    }

    @Test func appendRowsFillsDataRowsWithNoStepOrAppendsToRowsThere() {
        var b = Batch(stream: "s")
        b.appendRows(uptimes: [0, 1], timestamps: [10, 11])
        #expect(b.stepPaths == ["", ""] && b.kinds == [.data, .data])
        b.appendRows(uptimes: [2], timestamps: [12], stepPaths: ["walk"], kinds: [.marker])
        #expect(b.uptimes == [0, 1, 2] && b.timestamps == [10, 11, 12])
        #expect(b.stepPaths == ["", "", "walk"] && b.kinds == [.data, .data, .marker])
        b.appendRows(uptimes: [3], timestamps: [13])
        #expect(b.stepPaths.last == "" && b.kinds.last == .data && b.count == 4)
    }
}
