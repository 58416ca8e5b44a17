import DAQCore
import DAQTesting
import Foundation

extension ConformanceTable {
    static var storage: [Entry] {
        [
            Entry(.sink, "parquet") {
                ConformanceSpec(
                    config: "directory: ${CONFORMANCE_DIR}", drain: .consumed,
                    failure: FailureCase(config: "directory: /proc/daq-conformance", report: .refusedAtStart),
                    hugeCount: 250_000,
                    checkOutput: { outcome in
                        let written = Fixtures.parquetDataRows(in: outcome.directory)
                        return written == outcome.fed
                            ? nil : "the files hold \(written) data rows, \(outcome.fed) samples were fed"
                    })
            }
        ]
    }
}

extension Fixtures {
    /// Rows with `kind = 'data'` in every Parquet file under `directory`, as pyarrow reads them
    /// (installed by scripts/test.sh); -1 when pyarrow cannot read them.
    static func parquetDataRows(in directory: String) -> Int {
        let script = """
            import glob, sys, pyarrow.parquet as pq, pyarrow.compute as pc
            n = 0
            for f in glob.glob(sys.argv[1] + '/**/*.parquet', recursive=True):
                n += pc.sum(pc.equal(pq.read_table(f, columns=['kind'])['kind'], 'data')).as_py() or 0
            print(n)
            """
        guard let r = try? Process.runToEnd("python3", ["-c", script, directory], timeout: 300), r.status == 0 else {
            return -1
        }
        return Int(r.output.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
    }
}
