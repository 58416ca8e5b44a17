import DAQCore
import Testing

@Suite(.timeLimit(.minutes(20))) struct BatchBuilderTests {
    @Test func rowsOfDifferentShapesComeOutAsCompleteColumns() {
        var builder = BatchBuilder(stream: "s")
        builder.appendRow(uptime: 0, timestamp: 10) { row in
            row["a"] = .int(1)
            row["b"] = .string("x")
        }
        builder.appendRow(uptime: 1, timestamp: 11) { row in
            row["c"] = .double(2.5)
        }
        builder.appendRow(uptime: 2, timestamp: 12) { row in
            row["a"] = .int(3)
            row["a"] = .int(4)  // a second write replaces the first
            #expect(row["a"] == .int(4) && row["c"] == nil)
        }
        let batch = builder.finish()
        #expect(batch.count == 3 && builder.count == 0)
        #expect(batch.columns.map(\.name) == ["a", "b", "c"])
        #expect(batch.columns.allSatisfy { $0.count == 3 })
        // A row that never had a field reads as null in its column, and the sample lacks it.
        #expect(batch.samples.map { $0.fields["a"] } == [.int(1), nil, .int(4)])
        #expect(batch.samples.map { $0.fields["c"] } == [nil, .double(2.5), nil])
        #expect(batch.column("c")!.boxedValues == [.null, .double(2.5), .null])
        #expect((0..<3).map { batch.column("c")!.isAbsent($0) } == [true, false, true])
        #expect(batch.timestamps == [10, 11, 12] && batch.stream == "s")
    }

    @Test func aFinishedBuilderStartsOver() {
        var builder = BatchBuilder()
        builder.appendRow(uptime: 0, timestamp: 0) { $0["a"] = .int(1) }
        _ = builder.finish()
        builder.appendRow(uptime: 1, timestamp: 1) { $0["b"] = .int(2) }
        let batch = builder.finish()
        #expect(batch.columns.map(\.name) == ["b"] && batch.count == 1)
    }

    @Test func appendingToAnEmptyBatchKeepsItsStream() {
        var builder = BatchBuilder()
        builder.appendRow(uptime: 0, timestamp: 0) { $0["a"] = .int(1) }
        var batch = Batch(stream: "target")
        batch.append(contentsOf: builder.finish())
        #expect(batch.stream == "target" && batch.count == 1 && batch.value("a", at: 0) == .int(1))
    }
}
