import DAQCore
import Foundation

/// `daq batch --collect NAME`: one table for the whole batch from the file called NAME that
/// every recording's run wrote, written to OUTPUT/NAME with a `recording` column in front.
///
/// Rows come in the order of the recordings' names, and within a recording in the file's
/// order, so the table is the same whichever machine or array task ran which recording. CSV
/// files must carry one header row, the same in every file; JSON Lines objects get a
/// `"recording"` key first. The table is written beside and renamed into place, so a failed
/// collection leaves the previous table as it was.
struct BatchCollector {
    enum Format {
        case csv, jsonLines
    }

    /// The output file's name, e.g. `daily.csv`.
    let name: String
    /// The batch's output directory.
    let output: String
    let format: Format

    /// - Throws: ``BatchError`` when `name` is not a plain `.csv` or `.jsonl` file name.
    init(name: String, output: String) throws {
        if name.isEmpty || name.contains("/") || name.hasPrefix(".") {
            throw BatchError("--collect expects a file name such as daily.csv, not a path; found '\(name)'")
        }
        if name.hasSuffix(".csv") {
            format = .csv
        } else if name.hasSuffix(".jsonl") {
            format = .jsonLines
        } else {
            throw BatchError("--collect reads CSV (.csv) or JSON Lines (.jsonl) files; found '\(name)'")
        }
        self.name = name
        self.output = output
    }

    /// Where the merged table goes.
    var destination: String { (output as NSString).appendingPathComponent(name) }

    /// The file called `name` that the finished run of `item` wrote: in a run directory its
    /// `batch.json` lists, or in the recording's folder itself (a sink with a `path`).
    ///
    /// - Throws: ``BatchError`` naming the recording when there is none, or several.
    func locate(_ item: BatchPlan.Item, record: BatchRecord) throws -> String {
        let fm = FileManager.default
        let directories = record.directories ?? []
        var places = directories.map { $0.hasPrefix("/") ? $0 : item.directory + "/" + $0 }
        if directories.isEmpty {
            // A record written before it listed its run directories: every folder inside.
            let entries = (try? fm.contentsOfDirectory(atPath: item.directory)) ?? []
            places = entries.sorted().map { item.directory + "/" + $0 }
        }
        places.insert(item.directory, at: 0)
        let found = places.map { ($0 as NSString).appendingPathComponent(name) }.filter { path in
            var isDirectory: ObjCBool = false
            return fm.fileExists(atPath: path, isDirectory: &isDirectory) && !isDirectory.boolValue
        }
        if found.count > 1 {
            throw BatchError(
                "\(item.directory): several files named \(name) (\(found.joined(separator: ", "))); "
                    + "remove the stale run directories or run the batch again")
        }
        guard let file = found.first else {
            let wrote = Self.files(under: item.directory).map { String($0.dropFirst(item.directory.count + 1)) }
            throw BatchError(
                "\(item.directory): the run of \(item.input) wrote no file named \(name)"
                    + (wrote.isEmpty ? "" : " (it wrote: \(wrote.joined(separator: ", ")))"))
        }
        return file
    }

    /// The file of every recording of `items`, when each has finished with the configuration
    /// `configHash` gives for it.
    ///
    /// - Throws: ``BatchError`` listing every recording that has not (not run, failed, run with
    ///   another configuration) or whose file is missing.
    func gather(_ items: [BatchPlan.Item], configHash: (BatchPlan.Item) throws -> String) throws -> [Collected] {
        var files: [Collected] = []
        var problems: [String] = []
        for item in items {
            let recordPath = (item.directory as NSString).appendingPathComponent("batch.json")
            guard let record = BatchRecord.read(recordPath) else {
                problems.append("\(item.input): not run yet (no \(recordPath))")
                continue
            }
            guard record.status == "finished" else {
                problems.append("\(item.input): \(record.status)\(record.error.map { ": " + $0 } ?? "")")
                continue
            }
            do {
                guard try configHash(item) == record.configSHA256 else {
                    problems.append("\(item.input): run with another configuration (\(recordPath))")
                    continue
                }
                files.append(
                    Collected(
                        recording: item.name, path: try locate(item, record: record), verdicts: record.verdicts ?? []))
            } catch {
                problems.append("\(error)")
            }
        }
        if !problems.isEmpty {
            let shown = problems.prefix(10).map { "  " + $0 }.joined(separator: "\n")
            let more = problems.count > 10 ? "\n  … and \(problems.count - 10) more" : ""
            throw BatchError(
                "cannot collect \(name): \(problems.count) of \(items.count) recordings have no finished output:\n"
                    + shown + more)
        }
        return files
    }

    /// One recording's file to merge, and the verdicts of its run's results.
    struct Collected {
        var recording: String
        var path: String
        var verdicts: [ResultVerdict] = []
    }

    /// Merges one file per recording into ``destination``; returns the rows written.
    ///
    /// After `recording`, each component that recorded a result with a verdict in any run (a
    /// calibration fit) gets two columns, `<component>_accepted` and `<component>_reason`, so a
    /// row of a recording whose fit was not taken says so in the table, not only in its log.
    ///
    /// - Parameter files: the file of each recording, in any order.
    /// - Throws: ``BatchError`` naming the file and line when a file cannot be read or its
    ///   header or lines do not fit; ``destination`` is then left untouched.
    func merge(_ files: [Collected]) throws -> Int {
        let ordered = files.sorted { $0.recording < $1.recording }
        let judged = Set(files.flatMap { $0.verdicts.map(\.component) }).sorted()
        var out: [UInt8] = []
        var rows = 0
        var header: (bytes: [UInt8], path: String)?
        for file in ordered {
            let path = file.path
            guard let data = FileManager.default.contents(atPath: path) else {
                throw BatchError("\(path): cannot be read")
            }
            let bytes = [UInt8](data)
            switch format {
            case .csv:
                let prefix = Self.csvPrefix(file, judged: judged)
                rows += try appendCSV(bytes, path: path, prefix: prefix, header: &header, to: &out)
            case .jsonLines:
                rows += try appendJSONLines(bytes, path: path, prefix: Self.jsonPrefix(file, judged: judged), to: &out)
            }
        }
        if format == .csv {
            // Header once, in front; a batch whose files were all empty still gets a header.
            var head = Array(
                (["recording"] + judged.flatMap { ["\($0)_accepted", "\($0)_reason"] }).joined(separator: ",").utf8)
            if let header { head += [UInt8(ascii: ",")] + header.bytes }
            out = head + [UInt8(ascii: "\n")] + out
        }
        let temp = destination + ".part"
        guard FileManager.default.createFile(atPath: temp, contents: Data(out)) else {
            throw BatchError("\(temp): cannot be written")
        }
        guard rename(temp, destination) == 0 else {
            let reason = String(cString: strerror(errno))
            try? FileManager.default.removeItem(atPath: temp)
            throw BatchError("\(destination): cannot be written: \(reason)")
        }
        return rows
    }

    private func appendCSV(
        _ bytes: [UInt8], path: String, prefix: [UInt8], header: inout (bytes: [UInt8], path: String)?,
        to out: inout [UInt8]
    ) throws -> Int {
        let records = CSVRecords.split(bytes)
        guard let first = records.first else { return 0 }  // an empty file: a run with no rows
        let head = Array(bytes[first])
        if let expected = header {
            if head != expected.bytes {
                throw BatchError(
                    "\(path):1: the header differs from \(expected.path)'s: "
                        + CSVRecords.difference(expected: expected.bytes, found: head))
            }
        } else {
            if CSVRecords.cells(head).contains("recording") {
                throw BatchError("\(path):1: the header already has a column named 'recording'")
            }
            header = (head, path)
        }
        for record in records.dropFirst() where !record.isEmpty {
            out += prefix
            out.append(UInt8(ascii: ","))
            out += bytes[record]
            out.append(UInt8(ascii: "\n"))
        }
        return records.dropFirst().filter { !$0.isEmpty }.count
    }

    private func appendJSONLines(_ bytes: [UInt8], path: String, prefix key: [UInt8], to out: inout [UInt8]) throws
        -> Int
    {
        var rows = 0
        var line = 0
        var start = 0
        while start < bytes.count {
            line += 1
            let end = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
            var i = start
            while i < end, bytes[i] == UInt8(ascii: " ") || bytes[i] == UInt8(ascii: "\t") || bytes[i] == 13 {
                i += 1
            }
            if i < end {
                guard bytes[i] == UInt8(ascii: "{") else {
                    throw BatchError(
                        "\(path):\(line): expected a JSON object ('{'), found '\(Character(Unicode.Scalar(bytes[i])))'")
                }
                var j = i + 1
                while j < end, bytes[j] == UInt8(ascii: " ") || bytes[j] == UInt8(ascii: "\t") { j += 1 }
                out += key
                if j < end, bytes[j] != UInt8(ascii: "}") { out.append(UInt8(ascii: ",")) }
                out += bytes[(i + 1)..<end]
                out.append(UInt8(ascii: "\n"))
                rows += 1
            }
            start = end + 1
        }
        return rows
    }

    /// The cells a CSV row of `file` starts with: its recording, then each judged component's
    /// verdict (empty where its run recorded none).
    static func csvPrefix(_ file: Collected, judged: [String]) -> [UInt8] {
        var cells = [CSVRecords.cell(file.recording)]
        for component in judged {
            let v = file.verdicts.first { $0.component == component }
            cells.append(Array((v.map { $0.accepted ? "true" : "false" } ?? "").utf8))
            cells.append(CSVRecords.cell(v?.reason ?? ""))
        }
        return Array(cells.joined(separator: [UInt8(ascii: ",")]))
    }

    /// The start of a JSON line of `file`: `{"recording":…` and each judged component's verdict.
    static func jsonPrefix(_ file: Collected, judged: [String]) -> [UInt8] {
        var out = Array("{\"recording\":".utf8) + JSONString.quoted(file.recording)
        for component in judged {
            let v = file.verdicts.first { $0.component == component }
            out += Array(",".utf8) + JSONString.quoted("\(component)_accepted") + [UInt8(ascii: ":")]
            out += Array((v.map { $0.accepted ? "true" : "false" } ?? "null").utf8)
            out += Array(",".utf8) + JSONString.quoted("\(component)_reason") + [UInt8(ascii: ":")]
            out += v.map { JSONString.quoted($0.reason) } ?? Array("null".utf8)
        }
        return out
    }

    /// Every file under `directory`, depth first, as full paths.
    static func files(under directory: String) -> [String] {
        guard let e = FileManager.default.enumerator(atPath: directory) else { return [] }
        var out: [String] = []
        while let relative = e.nextObject() as? String {
            var isDirectory: ObjCBool = false
            let path = directory + "/" + relative
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue {
                out.append(path)
            }
        }
        return out.sorted()
    }
}
