import DAQCore
import Testing

/// The typed setters of ``FieldWriter`` and the unboxed columns ``BatchBuilder`` makes of them.
@Suite(.timeLimit(.minutes(20))) struct BatchBuilderTypedTests {
    /// Fills rows of two shapes, as a capture of two beacon kinds does, through `write`.
    private func fill(_ builder: inout BatchBuilder, rows: Int) {
        for r in 0..<rows {
            builder.appendRow(uptime: Double(r), timestamp: Double(r)) { row in
                row.set("address", string: "A\(r % 3)")
                row.set("rssi", int: Int64(-60 - r))
                if r % 2 == 0 {
                    row.set("temperature", double: Double(r) / 2)
                } else {
                    row.set("major", int: Int64(r))
                    row.set("uuid", string: "U\(r)")
                }
                row["frames"] = .array([.string(r % 2 == 0 ? "ruuvi" : "ibeacon")])
            }
        }
    }

    @Test func typedWritesReadBackAsTheValuesTheSubscriptWouldWrite() {
        var builder = BatchBuilder()
        fill(&builder, rows: 5)
        let batch = builder.finish()
        #expect(batch.columns.map(\.name) == ["address", "rssi", "temperature", "frames", "major", "uuid"])
        #expect(batch.samples.map { $0.fields["address"] } == ["A0", "A1", "A2", "A0", "A1"])
        #expect(batch.samples.map { $0.fields["rssi"] } == [-60, -61, -62, -63, -64])
        // Rows that never had a field read as null in the column and are left out of the sample.
        #expect(batch.samples.map { $0.fields["temperature"] } == [0.0, nil, 1.0, nil, 2.0])
        #expect(batch.samples.map { $0.fields["major"] } == [nil, 1, nil, 3, nil])
        #expect(batch.samples.map { $0.fields["uuid"] } == [nil, "U1", nil, "U3", nil])
        #expect(batch.column("uuid")!.boxedValues == [.null, "U1", .null, "U3", .null])
        #expect(batch.value("frames", at: 1) == .array(["ibeacon"]))
        #expect(batch.columns.allSatisfy { $0.count == 5 })
    }

    @Test func columnsEveryRowWroteOneTypeIntoStayUnboxed() {
        var builder = BatchBuilder()
        fill(&builder, rows: 4)
        let batch = builder.finish()
        guard case .strings(let addresses) = batch.column("address")?.storage,
            case .ints(let rssi) = batch.column("rssi")?.storage
        else {
            Issue.record("address and rssi should be unboxed")
            return
        }
        #expect(addresses == ["A0", "A1", "A2", "A0"] && rssi == [-60, -61, -62, -63])
    }

    @Test func numericColumnsSomeRowsLackStaySparseAndStringOnesBoxed() {
        var builder = BatchBuilder()
        fill(&builder, rows: 4)
        let batch = builder.finish()
        guard case .sparseDoubles(let temperature) = batch.column("temperature")?.storage,
            case .sparseInts(let major) = batch.column("major")?.storage,
            case .values(let uuid) = batch.column("uuid")?.storage
        else {
            Issue.record("temperature and major should be sparse, uuid boxed")
            return
        }
        #expect(temperature == [0, nil, 1, nil] && major == [nil, 1, nil, 3] && uuid == [.null, "U1", .null, "U3"])
    }

    @Test func sparseColumnsReadWriteAndSliceLikeBoxedOnes() {
        var ints = Column(name: "i", values: [])
        var sparse = BatchBuilder()
        sparse.appendRow(uptime: 0, timestamp: 0) { $0.set("other", int: 0) }
        sparse.appendRow(uptime: 1, timestamp: 1) { $0.set("i", int: 5) }
        ints = sparse.finish().column("i") ?? ints
        #expect(ints.boxedValues == [.null, 5] && ints.double(at: 1) == 5 && ints.double(at: 0) == nil)
        ints.append(.int(6))
        ints.appendAbsent()
        ints.set(.int(4), at: 0)
        #expect(ints.boxedValues == [4, 5, 6, .null])
        guard case .sparseInts = ints.storage else {
            Issue.record("ints and absent rows should keep a sparse column sparse")
            return
        }
        #expect(ints.slice(1..<3).boxedValues == [5, 6])
        #expect(ints.filtered([true, false, false, true], kept: 2).boxedValues == [4, .null])
        #expect((0..<4).map(ints.isAbsent) == [false, false, false, true])
        var joined = ints
        joined.append(contentsOf: ints.slice(0..<1))
        #expect(joined.boxedValues == [4, 5, 6, .null, 4])
        #expect((0..<5).map(joined.isAbsent) == [false, false, false, true, false])
        var texts = ints
        texts.append(.string("x"))
        #expect(texts.boxedValues == [4, 5, 6, .null, "x"])
        #expect((0..<5).map(texts.isAbsent) == [false, false, false, true, false])
        // A null a sample carries is not an absent row: the column is boxed and keeps the two apart.
        ints.append(.null)
        #expect(ints.boxedValues == [4, 5, 6, .null, .null])
        #expect((0..<5).map(ints.isAbsent) == [false, false, false, true, false])
    }

    @Test func aSecondTypeOrAnExplicitNullBoxesTheColumnWithoutLosingValues() {
        var builder = BatchBuilder()
        builder.appendRow(uptime: 0, timestamp: 0) { $0.set("x", int: 1) }
        builder.appendRow(uptime: 1, timestamp: 1) { $0.set("x", string: "two") }
        builder.appendRow(uptime: 2, timestamp: 2) { $0.set("x", double: 3.5) }
        builder.appendRow(uptime: 3, timestamp: 3) { $0["x"] = .null }
        builder.appendRow(uptime: 4, timestamp: 4) { $0.set("y", int: 7) }
        let batch = builder.finish()
        // Row 3 carries x as null; row 4 never had x: null in the column, absent from the sample.
        #expect(batch.samples.map { $0.fields["x"] } == [1, "two", 3.5, .null, nil])
        #expect(batch.column("x")!.boxedValues == [1, "two", 3.5, .null, .null])
        #expect(batch.samples.map { $0.fields["y"] } == [nil, nil, nil, nil, 7])
    }

    @Test func aSecondWriteInARowReplacesTheFirstAndReadsBack() {
        var builder = BatchBuilder()
        builder.appendRow(uptime: 0, timestamp: 0) { row in
            row.set("a", int: 1)
            row.set("a", int: 2)
            row.set("s", string: "old")
            row.set("s", string: "new")
            #expect(row["a"] == 2 && row["s"] == "new" && row["b"] == nil)
        }
        builder.appendRow(uptime: 1, timestamp: 1) { row in
            #expect(row["a"] == nil)  // not written in this row yet
            row.set("a", int: 3)
        }
        let batch = builder.finish()
        #expect(batch.samples.map { $0.fields["a"] } == [2, 3] && batch.value("s", at: 0) == "new")
    }

    @Test func batchesAfterTheFirstStartFromTheirOwnColumns() {
        var builder = BatchBuilder()
        fill(&builder, rows: 3)
        _ = builder.finish()
        builder.appendRow(uptime: 0, timestamp: 0) { row in
            row.set("uuid", string: "U9")
            row.set("address", string: "A9")
        }
        let batch = builder.finish()
        #expect(batch.columns.map(\.name) == ["uuid", "address"])
        #expect(batch.value("uuid", at: 0) == "U9" && batch.value("address", at: 0) == "A9")
    }

    @Test func fieldsTakeTypedWritesAsBoxedValues() {
        var fields = Fields()
        fields.set("i", int: 4)
        fields.set("d", double: 0.5)
        fields.set("s", string: "x")
        #expect(fields == ["i": 4, "d": 0.5, "s": "x"])
    }

    @Test func aColumnOfStringsReadsLikeBoxedStrings() {
        var column = Column(name: "s", strings: ["a", "b"])
        column.append(.string("c"))
        #expect(column.boxedValues == ["a", "b", "c"] && column.count == 3 && column[1] == "b")
        column.append(.int(1))
        #expect(column.boxedValues == ["a", "b", "c", 1])
        let joined = {
            var c = Column(name: "s", strings: ["a"])
            c.append(contentsOf: Column(name: "s", strings: ["b"]))
            return c
        }()
        guard case .strings(let values) = joined.storage else {
            Issue.record("joining two string columns should stay unboxed")
            return
        }
        #expect(values == ["a", "b"])
        #expect(Column(name: "s", strings: ["a", "b", "c"]).slice(1..<3).boxedValues == ["b", "c"])
        #expect(Column(name: "s", strings: ["a", "b"]).filtered([false, true], kept: 1).boxedValues == ["b"])
    }
}
