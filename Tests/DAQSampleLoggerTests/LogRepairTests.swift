import DAQCore
import DAQSampleLogger
import DAQTesting
import Foundation
import Testing

/// `daq repair`: logs cut at every byte keep exactly their complete items.
@Suite("Log repair", .timeLimit(.minutes(20)))
struct LogRepairTests {
    /// A finished log whose strings hold brackets, braces, quotes and escapes, to mislead a
    /// repair that does not track strings.
    func makeLog(_ sinkType: String, root: String = "object") throws -> [UInt8] {
        let base = tempDirectory()
        let context = StageContext.detached(name: "log", kind: .sink, clock: RunClock(mode: .virtual))
        let yaml = "directory: \(base)" + (sinkType == "json" ? "\nroot: \(root)" : "")
        let plugin = PluginContext(componentName: "log", pipelineName: "detached", baseDirectory: "", clock: .virtual)
        let sink: any Sink =
            sinkType == "json"
            ? try JSONLoggerSink(
                configuration: PluginConfigLoader.decode(JSONLoggerSink.Configuration.self, yaml: yaml), context: plugin
            )
            : try JSONLinesLoggerSink(
                configuration: PluginConfigLoader.decode(LoggerConfiguration.self, yaml: yaml), context: plugin)
        try sink.start(context: context)
        try sink.write(
            Batch(stream: "log", samples: [Sample(uptime: 0, stepPath: "s]}", kind: .marker)]), context: context)
        let tricky: [Value] = ["]}", "\\", "\"],[{", "{\"uptime\":1}\n]}", "\\\"]"]
        let samples = (0..<6).map { i in
            Sample(
                timestamp: 100 + Double(i), uptime: Double(i), stepPath: "a/\"b\"",
                fields: ["note": tricky[i % tricky.count], "nested": .array([.object(["k": "]}"]), .double(1.5)])])
        }
        try sink.write(Batch(stream: "x", samples: samples), context: context)
        try sink.write(
            Batch(stream: "log", samples: [Sample(uptime: 6, stepPath: "s]}", kind: .marker)]), context: context)
        try sink.flush(context: context)
        try sink.finish(context: context)
        return try readBytes(try runDirectory(under: base) + "/x.\(sinkType)")
    }

    @Test(arguments: ["object", "array"])
    func jsonCutAtAnyByteKeepsExactlyTheCompleteItems(_ root: String) throws {
        let log = try makeLog("json", root: root)
        let original = try JSONParser.parse(log)
        let items = root == "object" ? original.object["items"]!.array : original.array
        #expect(items.count == 8)
        // Every item but the root object's own closing brace ends a line of its own.
        let lines = String(decoding: log, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        var ends: [Int] = []
        var offset = 0
        for line in lines {
            offset += line.utf8.count + 1
            if line.hasPrefix("{\"uptime\"") { ends.append(offset - 1 - (line.hasSuffix(",") ? 1 : 0)) }
        }
        #expect(ends.count == 8)
        let headerEnd = log.firstIndex(of: 0x0A)!
        for cut in headerEnd..<log.count {
            let repaired = try LogRepair.repair(Array(log[..<cut]))
            let kept = ends.filter { $0 <= cut }.count
            #expect(repaired.itemsKept == kept, "cut at \(cut)")
            let value = try JSONParser.parse(repaired.bytes)
            let back = root == "object" ? value.object["items"]?.array ?? [] : value.array
            #expect(back == Array(items.prefix(kept)), "cut at \(cut)")
            #expect(value.object["startDate"] == (root == "object" ? original.object["startDate"] : nil))
            // Only a cut in the final newline leaves a log that is already complete.
            #expect(repaired.changed == (cut < log.count - 1), "cut at \(cut)")
            let dropped = repaired.changed ? cut - (ends.last { $0 <= cut } ?? headerEnd) : 0
            #expect(repaired.bytesDropped == dropped, "cut at \(cut)")
        }
        let whole = try LogRepair.repair(log)
        #expect(!whole.changed && whole.bytes == log && whole.itemsKept == 8 && whole.bytesDropped == 0)
    }

    @Test func jsonLinesCutAtAnyByteKeepsTheWholeLines() throws {
        let log = try makeLog("jsonl")
        let lines = log.split(separator: 0x0A).map { try! JSONParser.parse($0) }
        #expect(lines.count == 8)
        for cut in 1...log.count {
            let prefix = Array(log[..<cut])
            let repaired = try LogRepair.repair(prefix, format: .jsonLines)
            // A line is kept when it is whole, even when the cut took only its newline.
            let whole = prefix.split(separator: 0x0A, omittingEmptySubsequences: false).filter {
                (try? JSONParser.parse($0)) != nil
            }
            #expect(repaired.itemsKept == whole.count, "cut at \(cut)")
            let back = repaired.bytes.split(separator: 0x0A).map { try! JSONParser.parse($0) }
            #expect(back == Array(lines.prefix(whole.count)))
            #expect(repaired.bytes.isEmpty || repaired.bytes.last == 0x0A)
            #expect(repaired.changed == (log[cut - 1] != 0x0A))
        }
    }

    @Test(arguments: [
        "", "hello", "uptime,timestamp\n1,2\n", #"{"a":1}"#, "[1,2,3]", #"[{"a":1},{"uptime":2}]"#,
        #"{"startDate":"x","other":[{"uptime":1}]}"#, #"{"startDate":"x","items":[{"uptime":1},2"#,
        #"{"startDate":"x","items":[{"uptime":1}]]}"#, "{\"uptime\":1}\nnot json\n",
    ])
    func refusesWhatIsNotALoggerLog(_ text: String) {
        #expect(throws: LogRepair.Failure.self) { try LogRepair.repair(Array(text.utf8)) }
    }

    @Test func repairFileKeepsTheOriginalAndLeavesCompleteFilesAlone() throws {
        let log = try makeLog("json")
        let path = tempDirectory() + "/x.json"
        let cut = Array(log[..<(log.count - 40)])
        try Data(cut).write(to: URL(fileURLWithPath: path))
        let outcome = try LogRepair.repairFile(atPath: path)
        #expect(outcome.result.changed && outcome.backupPath == path + ".orig")
        #expect(outcome.description.contains("kept 7 items"))
        #expect(try readBytes(path + ".orig") == cut)
        #expect(try readBytes(path) == outcome.result.bytes)
        _ = try parseJSON(path)

        let again = try LogRepair.repairFile(atPath: path)
        #expect(!again.result.changed && again.description.hasSuffix("already complete (7 items); nothing changed"))
        #expect(try readBytes(path) == outcome.result.bytes)
    }

    @Test func repairFileRefusesANonLogAndTouchesNothing() throws {
        let path = tempDirectory() + "/data.json"
        try Data(#"{"not":"a log""#.utf8).write(to: URL(fileURLWithPath: path))
        #expect { try LogRepair.repairFile(atPath: path) } throws: { error in
            "\(error)".hasPrefix(path + ": not a logger JSON log")
        }
        #expect(!FileManager.default.fileExists(atPath: path + ".orig"))
        #expect(throws: LogRepair.Failure.self) { try LogRepair.repairFile(atPath: path + ".missing") }
    }

    /// A CSV log whose cells hold commas, quotes and line breaks, to mislead a repair that
    /// splits rows at every line break.
    func makeCSV() throws -> [UInt8] {
        let base = tempDirectory()
        let context = StageContext.detached(name: "log", kind: .sink, clock: RunClock(mode: .virtual))
        let config = try PluginConfigLoader.decode(LoggerConfiguration.self, yaml: "directory: \(base)")
        let plugin = PluginContext(componentName: "log", pipelineName: "detached", baseDirectory: "", clock: .virtual)
        let sink = try CSVLoggerSink(configuration: config, context: plugin)
        try sink.start(context: context)
        let tricky: [Value] = ["a,b", "line\nbreak", "\"quoted\"", "\"\n,\"", "plain"]
        let samples = (0..<6).map { i in
            Sample(
                timestamp: 100 + Double(i), uptime: Double(i),
                fields: ["note": tricky[i % tricky.count], "n": .int(Int64(i))])
        }
        try sink.write(Batch(stream: "x", samples: samples), context: context)
        try sink.flush(context: context)
        try sink.finish(context: context)
        return try readBytes(try runDirectory(under: base) + "/x.csv")
    }

    @Test func csvCutAtAnyByteKeepsExactlyTheCompleteRows() throws {
        let log = try makeCSV()
        let text = String(decoding: log, as: UTF8.self)
        #expect(text.contains("\"line\nbreak\""), "a cell with a line break is quoted: \(text)")
        // Row ends: line breaks outside quotes.
        var ends: [Int] = []
        var quoted = false
        for (i, b) in log.enumerated() {
            if b == UInt8(ascii: "\"") { quoted.toggle() }
            if b == 0x0A && !quoted { ends.append(i + 1) }
        }
        let header = ends[0]
        #expect(ends.count == 7, "the header and 6 rows: \(text)")
        for cut in header..<log.count {
            let repaired = try LogRepair.repair(Array(log[..<cut]), format: .csv)
            let kept = ends.filter { $0 <= cut }
            #expect(repaired.bytes == Array(log[..<kept.last!]), "cut at \(cut)")
            #expect(repaired.itemsKept == kept.count - 1, "cut at \(cut)")
            #expect(repaired.changed == (cut != kept.last!), "cut at \(cut)")
        }
        // Told from its content too, as `daq repair` does for a file without the .csv suffix.
        #expect(try LogRepair.repair(Array(log[..<(log.count - 3)])).format == .csv)
        #expect(throws: LogRepair.Failure.self) { try LogRepair.repair(Array(log[..<(header - 2)]), format: .csv) }
    }

    @Test func repairFileRepairsACSVLogCutMidRow() throws {
        let log = try makeCSV()
        let path = tempDirectory() + "/x.csv"
        try Data(log[..<(log.count - 5)]).write(to: URL(fileURLWithPath: path))
        let outcome = try LogRepair.repairFile(atPath: path)
        #expect(outcome.result.changed && outcome.description.contains("repaired csv log: kept 5 items"), "\(outcome)")
        #expect(try readBytes(path).last == 0x0A)
        #expect(try readBytes(path + ".orig") == Array(log[..<(log.count - 5)]))
    }

    /// Whether anything, a dangling symlink included, is at `path`.
    static func exists(_ path: String) -> Bool {
        var s = stat()
        return lstat(path, &s) == 0
    }

    /// No room for a copy: the temporary file beside is `/dev/full`, whose writes fail with
    /// ENOSPC as a full disk's do. The log is repaired in place and nothing is left beside it.
    @Test(arguments: ["json", "jsonl"])
    func repairFileWithoutRoomForACopyRepairsInPlace(_ format: String) throws {
        let log = try makeLog(format)
        let path = tempDirectory() + "/x.\(format)"
        let cut = Array(log[..<(log.count - 30)])
        try Data(cut).write(to: URL(fileURLWithPath: path))
        try FileManager.default.createSymbolicLink(atPath: path + ".tmp", withDestinationPath: "/dev/full")
        let outcome = try LogRepair.repairFile(atPath: path)
        #expect(
            outcome.backupPath == nil && outcome.inPlaceReason?.contains("No space left on device") == true,
            "\(outcome)")
        #expect(outcome.description.contains("in place"))
        #expect(try readBytes(path) == outcome.result.bytes)
        if format == "json" { _ = try parseJSON(path) }
        let debris = try FileManager.default.contentsOfDirectory(atPath: (path as NSString).deletingLastPathComponent)
        #expect(debris == ["x.\(format)"], "only the log is left: \(debris)")
        #expect(!(try LogRepair.repairFile(atPath: path)).result.changed)
    }

    /// An empty `.orig` (what an older daq left on a full disk) holds nothing and does not block
    /// a repair; an `.orig` with other bytes is kept, and the next name taken.
    @Test func repairFileIsNotBlockedByAnEarlierOrig() throws {
        let log = try makeLog("json")
        let dir = tempDirectory()
        let path = dir + "/x.json"
        let cut = Array(log[..<(log.count - 40)])
        try Data(cut).write(to: URL(fileURLWithPath: path))
        FileManager.default.createFile(atPath: path + ".orig", contents: Data())
        let first = try LogRepair.repairFile(atPath: path)
        #expect(first.backupPath == path + ".orig")
        #expect(try readBytes(path + ".orig") == cut)

        try Data(cut).write(to: URL(fileURLWithPath: path))
        let second = try LogRepair.repairFile(atPath: path)
        #expect(second.backupPath == path + ".orig.2")
        #expect(try readBytes(path + ".orig") == cut && readBytes(path + ".orig.2") == cut)
        // Repairing a repaired file changes nothing and keeps no further copy.
        #expect(!(try LogRepair.repairFile(atPath: path)).result.changed)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: dir).sorted() == [
                "x.json", "x.json.orig", "x.json.orig.2",
            ])
    }
}
