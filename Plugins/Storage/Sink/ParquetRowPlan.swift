import DAQCore

/// Where each column of a file finds its values in one batch: worked out once per batch, so
/// the rows themselves go column by column with no lookup by name.
struct ParquetRowPlan {
    /// For each field column (after the fixed ones), the batch column that holds it.
    private let fieldColumns: [Int?]
    /// The batch's `marker` field: a marker stream's text, which goes in the `marker` column.
    private let markerColumn: Int?

    init(_ batch: Batch, layout: ParquetLayout) {
        fieldColumns = layout.columns.dropFirst(ParquetLayout.fixed.count).map { batch.columnIndex($0.name) }
        markerColumn = batch.columnIndex(StreamDescriptor.markerField.name)
    }

    /// Appends data or event rows `rows` of `batch` (none of them a marker).
    func append(_ batch: Batch, rows: Range<Int>, to buffers: [ParquetColumnBuffer]) {
        let timestamps = buffers[0]
        for r in rows { timestamps.append(int: Self.micros(batch.timestamps[r])) }
        buffers[1].append(doubles: batch.uptimes[rows])
        buffers[2].append(strings: batch.stepPaths[rows])
        // Kinds come in long runs (all data, mostly): one dictionary lookup per run.
        var start = rows.lowerBound
        while start < rows.upperBound {
            let kind = batch.kinds[start]
            var end = start + 1
            while end < rows.upperBound && batch.kinds[end] == kind { end += 1 }
            buffers[3].append(string: kind == .event ? "event" : "data", count: end - start)
            start = end
        }
        ParquetColumnFeed.append(markerColumn.map { batch.columns[$0] }, rows: rows, to: buffers[4])
        for (i, column) in fieldColumns.enumerated() {
            ParquetColumnFeed.append(
                column.map { batch.columns[$0] }, rows: rows, to: buffers[ParquetLayout.fixed.count + i])
        }
    }

    /// Appends a marker row: its time, step and mark; every field null.
    static func appendMarker(_ marker: ParquetMarker, to buffers: [ParquetColumnBuffer]) {
        buffers[0].append(int: micros(marker.timestamp))
        buffers[1].append(double: marker.uptime)
        buffers[2].append(string: marker.stepPath)
        buffers[3].append(string: "marker")
        buffers[4].append(string: marker.mark)
        for b in buffers.dropFirst(ParquetLayout.fixed.count) { b.appendNull() }
    }

    /// Seconds since 1970 as whole microseconds, the unit of the `timestamp` column.
    static func micros(_ seconds: Double) -> Int64 {
        let us = (seconds * 1_000_000).rounded()
        return us.isFinite && abs(us) < 9.2e18 ? Int64(us) : 0
    }
}
