import ArgumentParser
import DAQSampleLogger

extension DAQCommand {
    struct Repair: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Close logger files left open by a run that was killed.",
            discussion: """
                A logger.json file cut off mid-way (a crash, a power cut, kill -9) keeps every \
                complete item: the partial item at its end is dropped and the items array and \
                root object are closed, so any JSON reader can open it. A logger.jsonl file \
                loses its partial last line. The original is kept as FILE.orig and the repaired \
                file replaces it atomically; a file that is already complete is left untouched.

                Prints one line per file: items kept and bytes dropped, or why the file could \
                not be repaired (not a logger log, unreadable, FILE.orig already present). \
                Exits 0 when every file is complete or repaired; 1 otherwise.

                Example:
                  daq repair out/walk-test-20260101T120000Z/*.json
                """)

        @Argument(help: "logger.json or logger.jsonl files.", completion: .file(extensions: ["json", "jsonl"]))
        var files: [String]

        func run() throws {
            var failed = false
            for file in files {
                do {
                    print(try LogRepair.repairFile(atPath: file).description)
                } catch {
                    failed = true
                    printError("\(error.path): error: \(error.reason)")
                }
            }
            if failed { throw ExitStatus.runtimeFailure }
        }
    }
}
