import DAQTesting
import Foundation
import Testing

/// Recordings and tables for the `daq batch` tests that run the real binary.
enum BatchSupport {
    /// A fresh directory under the temporary directory.
    static func scratch(_ label: String) throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("daq-\(label)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    /// Writes `.cwa` recordings, one per name, each with motion of its own (a different swing
    /// per recording), so their feature tables differ.
    static func writeRecordings(_ names: [String], in dir: URL, seconds: Double = 8) throws {
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        for (i, name) in names.enumerated() {
            var w = CWAWriter()
            w.rate = 25
            w.seconds = seconds
            w.start = 1_700_000_000 + Double(i) * 86_400
            let swing = 40 + 17 * i
            w.counts = { n in (x: (n * 7 + i * 5) % swing - swing / 2, y: (n * 3) % 30 - 15, z: 256 + (n * i) % 25) }
            try w.write(to: dir.appendingPathComponent(name + ".cwa").path)
        }
    }

    /// `daq batch` with `arguments`, the progress bar off.
    static func batch(_ arguments: [String]) throws -> (status: Int32, out: String, err: String) {
        try DAQBinary.run(["batch"] + arguments + ["--progress", "never"])
    }

    static func text(_ url: URL) throws -> String { try String(contentsOf: url, encoding: .utf8) }

    /// The finished run's file called `name` of recording `recording` under `output`, found
    /// by the test itself: the one run directory in the recording's folder.
    static func runFile(_ name: String, of recording: String, under output: URL) throws -> URL {
        let folder = output.appendingPathComponent(recording)
        let runs = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0 != "batch.json" }
        try #require(runs.count == 1, "\(recording): one run directory, found \(runs)")
        return folder.appendingPathComponent(runs[0]).appendingPathComponent(name)
    }

    /// Rows of a CSV file as Python's `csv` module reads them: an independent reader.
    static func pythonCSV(_ url: URL) throws -> [[String]] {
        let script = "import csv, json, sys; print(json.dumps(list(csv.reader(open(sys.argv[1], newline='')))))"
        let r = try DAQBinary.tool(["python3", "-c", script, url.path])
        try #require(r.status == 0, "python3 could not read \(url.path) as CSV: \(r.err)")
        return try JSONDecoder().decode([[String]].self, from: r.out)
    }

    /// A table with the columns named in `dropping` removed (run-clock and wall-clock columns
    /// that differ from one run to the next).
    static func without(_ dropping: Set<String>, _ rows: [[String]]) -> [[String]] {
        guard let header = rows.first else { return rows }
        let keep = header.indices.filter { !dropping.contains(header[$0]) }
        return rows.map { row in keep.map { $0 < row.count ? row[$0] : "" } }
    }
}
