import DAQCore

/// The columns a file sink writes, resolved once per batch to metadata or field columns.
struct RowLayout {
    static let metadata = ["uptime", "timestamp", "stepPath", "kind"]

    enum Source {
        case uptime, timestamp, stepPath, kind
        case column(Int)
        /// An unboxed column, taken out once per batch so rows index a plain array.
        case doubles([Double])
        case missing
    }

    let names: [String]

    /// Where each name's values come from in `batch`: a field of that name wins over metadata.
    func sources(in batch: Batch) -> [Source] {
        names.map { name in
            if let c = batch.columnIndex(name) {
                if let values = batch.columns[c].doubles { return .doubles(values) }
                return .column(c)
            }
            switch name {
            case "uptime": return .uptime
            case "timestamp": return .timestamp
            case "stepPath": return .stepPath
            case "kind": return .kind
            default: return .missing
            }
        }
    }

    /// Appends every row of `batch` (markers only when `markers`); returns the rows written.
    ///
    /// Unboxed columns are copied once per batch into one row-major matrix, so the row loop reads
    /// plain memory instead of retaining and releasing a column array per cell.
    func appendCSV(_ batch: Batch, sources: [Source], decimals: Int?, markers: Bool, to out: inout [UInt8]) -> Int {
        let width = sources.count
        var matrix = [Double](repeating: 0, count: width * batch.count)
        var isMatrix = [Bool](repeating: false, count: width)
        for (k, source) in sources.enumerated() {
            if case .doubles(let values) = source {
                isMatrix[k] = true
                for r in 0..<batch.count { matrix[r * width + k] = values[r] }
            }
        }
        var written = 0
        matrix.withUnsafeBufferPointer { m in
            for row in 0..<batch.count {
                if batch.kinds[row] == .marker && !markers { continue }
                for k in 0..<width {
                    if k > 0 { out.append(UInt8(ascii: ",")) }
                    if isMatrix[k] {
                        Self.number(m[row * width + k], decimals, &out)
                    } else {
                        appendCell(batch, row: row, source: sources[k], decimals: decimals, to: &out)
                    }
                }
                out.append(0x0A)
                written += 1
            }
        }
        return written
    }

    private func appendCell(_ batch: Batch, row: Int, source: Source, decimals: Int?, to out: inout [UInt8]) {
        switch source {
        case .uptime: Self.number(batch.uptimes[row], decimals, &out)
        case .timestamp: Self.number(batch.timestamps[row], decimals, &out)
        case .stepPath: CSVText.appendCell(batch.stepPaths[row], to: &out)
        case .kind: out.append(contentsOf: batch.kinds[row].name.utf8)
        case .doubles(let values): Self.number(values[row], decimals, &out)
        case .column(let c):
            let column = batch.columns[c]
            if let decimals, case .double(let d) = column[row] {
                Self.number(d, decimals, &out)
            } else {
                CSVText.append(column[row], to: &out)
            }
        case .missing: break
        }
    }

    func appendJSON(_ batch: Batch, row: Int, sources: [Source], decimals: Int?, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "{"))
        var first = true
        for (name, source) in zip(names, sources) {
            let start = out.count
            if !first { out.append(UInt8(ascii: ",")) }
            JSONEncoding.appendString(name, to: &out)
            out.append(UInt8(ascii: ":"))
            switch source {
            case .uptime: Self.number(batch.uptimes[row], decimals, &out)
            case .timestamp: Self.number(batch.timestamps[row], decimals, &out)
            case .stepPath: JSONEncoding.appendString(batch.stepPaths[row], to: &out)
            case .kind: JSONEncoding.appendString(batch.kinds[row].name, to: &out)
            case .doubles(let values):
                Self.number(values[row], decimals, &out)
            case .column(let c):
                let v = batch.columns[c][row]
                if batch.columns[c].isAbsent(row) {
                    out.removeSubrange(start...)
                    continue
                }
                if let decimals, case .double(let d) = v {
                    Self.number(d, decimals, &out)
                } else {
                    JSONEncoding.append(v, to: &out)
                }
            case .missing:
                out.removeSubrange(start...)
                continue
            }
            first = false
        }
        out.append(contentsOf: "}\n".utf8)
    }

    @inline(__always)
    static func number(_ d: Double, _ decimals: Int?, _ out: inout [UInt8]) {
        if let decimals, d.isFinite {
            NumberFormatting.appendFixed(d, decimals: decimals, to: &out)
        } else {
            JSONEncoding.appendDouble(d, to: &out)
        }
    }
}
