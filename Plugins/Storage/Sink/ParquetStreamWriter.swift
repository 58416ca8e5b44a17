import DAQCore

/// One input stream of a `parquet` sink: its rows, every marker of the sink, and the file (or
/// the folder of parts) they go to.
///
/// Rows collect in column buffers and go out as a row group every `row_group_rows` rows. With
/// `roll`, a part is closed whole (footer written, synced) when it reaches its rows or its time,
/// and the next row opens the next part. A field met mid-run widens the schema: the single file
/// gets the new column (null in the row groups already written); a rolled stream closes its part
/// and starts the next with the wider schema, so readers that union by name see one table.
///
/// # Thread safety
/// Not thread-safe: its sink calls it on the stage's serial queue only.
final class ParquetStreamWriter {
    /// Where a stream's files go.
    enum Target {
        /// One file.
        case file(String)
        /// A folder of `part-00001.parquet`, ….
        case folder(String)
    }

    let stream: String
    private let target: Target
    private let settings: ParquetSinkSettings
    private var layout: ParquetLayout
    private var descriptor: StreamDescriptor?
    private var buffers: [ParquetColumnBuffer]
    private var part: ParquetFileWriter?
    private var partNumber = 0
    /// The single file's number: 1 until a field changes type.
    private var fileNumber = 1
    private var partRows = 0
    private var partStart = 0.0
    /// The index of the sink's next marker this stream has not written yet.
    private(set) var nextMarker = 0
    /// Files closed so far: path, rows, bytes.
    private(set) var closed: [(path: String, rows: Int, bytes: Int)] = []
    /// Data and event rows in row groups written (the delivered count).
    private(set) var committedSamples = 0
    private var bufferedSamples = 0

    init(stream: String, target: Target, settings: ParquetSinkSettings, descriptor: StreamDescriptor?) {
        self.stream = stream
        self.target = target
        self.settings = settings
        self.descriptor = descriptor
        layout = ParquetLayout(descriptor: descriptor, batch: nil)
        buffers = layout.columns.map(ParquetColumnBuffer.init)
    }

    /// The open part: path, rows in its row groups, bytes handed to the kernel.
    var open: (path: String, rows: Int, bytes: Int)? {
        part.map { ($0.path, $0.rowCount, $0.bytesFlushed) }
    }

    /// Bytes written so far to every file, buffered ones included.
    var bytesWritten: Int { closed.reduce(0) { $0 + $1.bytes } + (part?.bytesWritten ?? 0) }

    /// Writes the data and events of `batch`, each preceded by the markers due by its uptime.
    /// - Parameter warn: reports what a reader should know (a field that changed type).
    func write(_ batch: Batch, markers: [ParquetMarker], warn: (String) -> Void) throws {
        try adopt(batch, warn: warn)
        let plan = ParquetRowPlan(batch, layout: layout)
        var row = 0
        let n = batch.count
        while row < n {
            if batch.kinds[row] == .marker {
                row += 1
                continue
            }
            try appendMarkers(markers, upTo: batch.uptimes[row])
            try rollIfDue(at: batch.uptimes[row])
            try openPartIfNeeded(at: batch.uptimes[row])
            var end = row + 1
            let limit = row + min(roomInRowGroup, roomInPart)
            let deadline = settings.roll?.seconds.map { partStart + $0.value } ?? .infinity
            while end < n && end < limit && batch.kinds[end] != .marker && batch.uptimes[end] < deadline
                && !(nextMarker < markers.count && markers[nextMarker].precedes(batch.uptimes[end]))
            {
                end += 1
            }
            plan.append(batch, rows: row..<end, to: buffers)
            bufferedSamples += end - row
            partRows += end - row
            try writeRowGroupIfFull()
            row = end
        }
    }

    /// Writes every marker not yet written, then closes the open part.
    func finish(markers: [ParquetMarker]) throws {
        try appendMarkers(markers, upTo: .infinity)
        // A stream that never wrote a row still leaves a file: its schema, no row groups.
        if part == nil && closed.isEmpty { try openPartIfNeeded(at: 0) }
        try closePart()
    }

    /// Hands buffered bytes to the kernel (and the disk with `fsync`).
    func flush() throws {
        try part?.flush(sync: settings.fsync)
    }

    // MARK: Schema

    /// Takes the descriptor of `batch`, widening the schema by the fields it adds.
    private func adopt(_ batch: Batch, warn: (String) -> Void) throws {
        let known = batch.columns.allSatisfy {
            layout.contains($0.name) || ParquetLayout.reserved.contains($0.name)
        }
        if known && (batch.descriptor == nil || batch.descriptor == descriptor) { return }
        if let d = batch.descriptor { descriptor = d }
        let wider = ParquetLayout(descriptor: descriptor, batch: batch)
        try retype(layout.retyped(by: wider), warn: warn)
        let added = layout.missing(from: wider)
        guard !added.isEmpty else { return }
        let units = wider.units.filter { name, _ in added.contains { $0.name == name } }
        if case .folder = target, part != nil {
            try closePart()
        } else if let part {
            try writeRowGroup()
            try part.addColumns(added)
        }
        layout.append(added, units: units)
        buffers += added.map { column in
            let b = ParquetColumnBuffer(schema: column)
            // Rows buffered before the field appeared have no value.
            b.appendNull(count: buffers.first?.rowCount ?? 0)
            return b
        }
        // The open file's footer has the new columns now (their null chunks written).
        try checkpoint()
    }

    /// Gives fields whose declared type changed (an int field that met a double) their new
    /// column type. Written chunks cannot change type, so the open file is closed and the rows
    /// from here on go to the next part, or for a single file to `<stream>-2.parquet`: a reader
    /// that unions by name promotes the column to the wider type.
    private func retype(_ changed: [ParquetColumnSchema], warn: (String) -> Void) throws {
        guard !changed.isEmpty else { return }
        if let open = part?.path {
            try closePart()
            if case .file = target {
                fileNumber += 1
                warn(
                    "\(changed.map(\.name).joined(separator: ", ")) changed type mid-run; rows from here on go to "
                        + "\(filePath(fileNumber)) (\(open) holds those before)")
            }
        }
        for column in changed { layout.replace(column) }
        buffers = layout.columns.map(ParquetColumnBuffer.init)
    }

    /// The single file's path: `<stream>.parquet`, then `<stream>-2.parquet` after a type change.
    private func filePath(_ number: Int) -> String {
        guard case .file(let path) = target else { return "" }
        guard number > 1 else { return path }
        return String(path.dropLast(".parquet".count)) + "-\(number).parquet"
    }

    // MARK: Parts and row groups

    private var roomInRowGroup: Int { max(1, settings.rowGroupRows - (buffers.first?.rowCount ?? 0)) }

    private var roomInPart: Int {
        guard let rows = settings.roll?.rows else { return .max }
        return max(1, rows - partRows)
    }

    private func rollIfDue(at uptime: Double) throws {
        guard part != nil, let roll = settings.roll else { return }
        let full = roll.rows.map { partRows >= $0 } ?? false
        let old = roll.seconds.map { uptime >= partStart + $0.value } ?? false
        if full || old { try closePart() }
    }

    private func openPartIfNeeded(at uptime: Double) throws {
        guard part == nil else { return }
        let path: String
        switch target {
        case .file: path = filePath(fileNumber)
        case .folder(let folder):
            partNumber += 1
            path = folder + "/part-" + Self.padded(partNumber) + ".parquet"
        }
        part = try ParquetFileWriter(
            path: path, columns: layout.columns, codec: settings.codec, level: settings.level)
        partRows = 0
        partStart = uptime
        try checkpoint()
    }

    /// Lets `daq repair` close the open part at its last completed row group, should the run
    /// be killed before it is closed.
    private func checkpoint() throws {
        try part?.checkpoint(
            keyValues: ParquetFooterMetadata.keyValues(stream: stream, descriptor: descriptor, layout: layout),
            sync: settings.fsync)
    }

    private func writeRowGroupIfFull() throws {
        if (buffers.first?.rowCount ?? 0) >= settings.rowGroupRows { try writeRowGroup() }
    }

    private func writeRowGroup() throws {
        guard let part, (buffers.first?.rowCount ?? 0) > 0 else { return }
        try part.writeRowGroup(buffers)
        for b in buffers { b.reset() }
        committedSamples += bufferedSamples
        bufferedSamples = 0
        try checkpoint()
    }

    private func closePart() throws {
        guard let part else { return }
        try writeRowGroup()
        try part.close(
            keyValues: ParquetFooterMetadata.keyValues(stream: stream, descriptor: descriptor, layout: layout))
        closed.append((part.path, part.rowCount, part.bytesWritten))
        self.part = nil
    }

    // MARK: Markers

    private func appendMarkers(_ markers: [ParquetMarker], upTo uptime: Double) throws {
        while nextMarker < markers.count, markers[nextMarker].precedes(uptime) {
            let m = markers[nextMarker]
            try rollIfDue(at: m.uptime)
            try openPartIfNeeded(at: m.uptime)
            ParquetRowPlan.appendMarker(m, to: buffers)
            partRows += 1
            nextMarker += 1
            try writeRowGroupIfFull()
        }
    }

    /// `n` as five digits or more: `00001`.
    static func padded(_ n: Int) -> String {
        let digits = String(n)
        return String(repeating: "0", count: max(0, 5 - digits.count)) + digits
    }
}
