import ArgumentParser
import DAQCore
import DAQLSL
import DAQSHA256
import DAQSampleLogger
import DAQStorage
import Foundation

extension DAQCommand {
    struct Repair: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Close logger, XDF and Parquet files and run records left open by a run that was killed.",
            discussion: """
                An XDF file (logger.xdf, or LabRecorder's) gets a StreamFooter for every stream \
                that lacks one, counted from the file, and loses a chunk cut short at its end.

                A Parquet file the parquet sink left open (FILE.parquet.footer beside it) is \
                closed at its last complete row group: a row group cut short is dropped and the \
                footer its checkpoint holds is appended, so pyarrow, DuckDB and polars read it.

                A logger.json file cut off mid-way (a crash, a power cut, kill -9) keeps every \
                complete item: the partial item at its end is dropped and the items array and \
                root object are closed, so any JSON reader can open it. A logger.jsonl file \
                loses its partial last line, a logger.csv file its partial last row. The original \
                is kept as FILE.orig (a hard link: no extra room) and the repaired file is written \
                beside and renamed into place. On a disk with no room for that copy the file is \
                repaired in place instead, and the dropped partial item is not kept. A file that \
                is already complete is left untouched, so repairing twice changes nothing.

                Given a run directory, it repairs every .json, .jsonl and .csv file in it and \
                every open Parquet file under it (rolled parts included), and \
                when the manifest still says "running" but no daq process holds the directory \
                (the run was killed), marks the manifest "interrupted" with the time of the \
                run's last write as its endDate. A directory a live run holds is left alone.

                Prints one line per file and run: items kept and bytes dropped, or why it could \
                not be repaired (not a logger log, unreadable, not writable). Exits 0 when \
                everything is complete or repaired; 1 otherwise.

                Examples:
                  daq repair out/walk-test-20260101T120000Z
                  daq repair out/walk-test-20260101T120000Z/*.json
                """)

        @Argument(
            help: "Run directories, or logger.json, logger.jsonl, logger.csv, .xdf and .parquet files.",
            completion: .file(extensions: ["json", "jsonl", "csv", "xdf", "parquet"]))
        var files: [String]

        func run() throws {
            var failed = false
            for file in files {
                if RunRecord.isRunDirectory(file) {
                    failed = !repairRun(file) || failed
                    continue
                }
                if XDFRepair.isXDF(file) {
                    failed = repairXDF(file) == nil || failed
                    continue
                }
                if ParquetRepair.isParquet(file) {
                    if let live = Self.liveRun(holding: file) {
                        printError("\(file): error: a daq process is still writing \(live); left as it is")
                        failed = true
                        continue
                    }
                    failed = !repairParquet(file) || failed
                    continue
                }
                do {
                    print(try LogRepair.repairFile(atPath: file).description)
                } catch {
                    failed = true
                    printError("\(error.path): error: \(error.reason)")
                }
            }
            if failed { throw ExitStatus.runtimeFailure }
        }

        /// Repairs an XDF file, printing what it did; `nil` (with the error printed) when it could not.
        private func repairXDF(_ path: String, quiet: Bool = false) -> XDFRepair.Outcome? {
            do {
                let outcome = try XDFRepair.repairFile(atPath: path)
                if outcome.changed || !quiet { print(outcome.description) }
                return outcome
            } catch {
                printError("\(path): error: \(error)")
                return nil
            }
        }

        /// The run directory holding `file` (it or a folder of parts in it) whose run is still
        /// going: cutting a file its writer goes on writing would lose the writer's rows.
        static func liveRun(holding file: String) -> String? {
            var folder = (file as NSString).deletingLastPathComponent
            for _ in 0..<2 {
                if RunRecord.isRunDirectory(folder) {
                    let record = try? RunRecord(directory: folder)
                    return record?.status == .running ? folder : nil
                }
                folder = (folder as NSString).deletingLastPathComponent
            }
            return nil
        }

        /// Closes a Parquet file left open, printing what it did (or why it could not).
        private func repairParquet(_ path: String, quiet: Bool = false) -> Bool {
            do {
                let outcome = try ParquetRepair.repairFile(atPath: path)
                if outcome.changed || !quiet { print(outcome.description) }
                return true
            } catch {
                printError("\(PrintableText.line("\(error)"))")
                return false
            }
        }

        /// Repairs every log of a run directory and, for a killed run, its manifest.
        private func repairRun(_ directory: String) -> Bool {
            let record: RunRecord
            do {
                record = try RunRecord(directory: directory)
            } catch {
                printError("\(error.path): error: \(error.reason)")
                return false
            }
            if record.status == .running {
                printError("\(directory): error: a daq process is still writing this run; left as it is")
                return false
            }
            var ok = true
            var files: [RunRecorder.OutputFile] = []
            for (name, _) in RunRecord.dataFiles(in: directory) {
                let path = (directory as NSString).appendingPathComponent(name)
                let format = (name as NSString).pathExtension
                if format == "xdf" {
                    guard let outcome = repairXDF(path, quiet: true) else {
                        ok = false
                        continue
                    }
                    let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int
                    files.append(
                        RunRecorder.OutputFile(path: name, format: format, samples: outcome.samples, bytes: size ?? 0))
                    continue
                }
                guard ["json", "jsonl", "csv"].contains(format) else { continue }
                do {
                    let outcome = try LogRepair.repairFile(atPath: path)
                    if outcome.result.changed { print(outcome.description) }
                    let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int
                    files.append(
                        RunRecorder.OutputFile(
                            path: name, format: format, samples: outcome.result.itemsKept,
                            bytes: size ?? outcome.result.bytes.count))
                } catch {
                    ok = false
                    printError("\(error.path): error: \(error.reason)")
                }
            }
            for path in ParquetRepair.openFiles(in: directory) { ok = repairParquet(path, quiet: true) && ok }
            guard record.status == .interrupted else {
                print(record.summary)
                return ok
            }
            print(record.summary)
            do {
                try record.markInterrupted(files: files, contentHash: .sha256)
                print("\(directory): manifest.json now says \"\(RunRecord.interruptedStatus)\"")
            } catch {
                printError("\(directory): error: \(error)")
                return false
            }
            return ok
        }
    }
}
