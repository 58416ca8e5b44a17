import Foundation
import Testing

/// `daq batch --shard` as a job array on a real single-node Slurm (Debian's slurm-wlm and
/// munge on localhost, started by scripts/slurm-local.sh), with the sbatch file README shows.
/// A cluster that cannot start fails the test with the daemons' logs, it is not skipped.
@Suite("daq batch on Slurm", .timeLimit(.minutes(20)))
struct SlurmBatchTests {
    static let pipeline = DAQBinary.repository.appendingPathComponent("pipelines/activity-summary.yaml").path
    static let sbatchFile = DAQBinary.repository.appendingPathComponent("scripts/slurm/batch-array.sbatch").path

    @Test func aJobArrayProcessesEveryRecordingOnceAndCollectsTheSingleMachineTable() throws {
        let started = try DAQBinary.tool(["bash", "scripts/slurm-local.sh", "start"])
        try #require(started.status == 0, "Slurm did not start:\n\(started.err)")
        let env = try DAQBinary.tool(["bash", "scripts/slurm-local.sh", "env"])
        let conf = String(decoding: env.out, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        try #require(conf.hasPrefix("export SLURM_CONF="), "\(conf)")
        let slurmConf = String(conf.dropFirst("export ".count))

        let dir = try BatchSupport.scratch("slurm")
        let names = (1...8).map { "subject-\($0)" }
        try BatchSupport.writeRecordings(names, in: dir.appendingPathComponent("rec"))
        let input = dir.path + "/rec/*.cwa"
        let cluster = dir.appendingPathComponent("cluster")

        // `--wait` returns when every array task has ended, non-zero if any failed; `timeout`
        // bounds it, and a job left behind by a timeout is cancelled.
        let submitted = try DAQBinary.tool([
            slurmConf, "PIPELINE=\(Self.pipeline)", "INPUT=\(input)", "OUTPUT=\(cluster.path)",
            "DAQ=\(DAQBinary.url.path)", "timeout", "300", "sbatch", "--parsable", "--wait", "--chdir=\(dir.path)",
            "--output=\(dir.path)/task-%a.log", Self.sbatchFile,
        ])
        let job = String(decoding: submitted.out, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        let logs = try (1...4).map { k -> String in
            (try? BatchSupport.text(dir.appendingPathComponent("task-\(k).log"))) ?? ""
        }
        if submitted.status != 0 { _ = try? DAQBinary.tool([slurmConf, "scancel", job]) }
        try #require(
            submitted.status == 0,
            "sbatch --wait exited \(submitted.status) (124: timed out): \(submitted.err)\n\(logs.joined(separator: "\n---\n"))"
        )

        // The shards partition the recordings: each task's table lists its own, none twice.
        var ranBy: [String: [Int]] = [:]
        for (k, log) in logs.enumerated() {
            for name in names where log.contains("rec/\(name).cwa ") { ranBy[name, default: []].append(k + 1) }
        }
        for name in names { #expect(ranBy[name]?.count == 1, "\(name) ran in tasks \(ranBy[name] ?? [])\n\(logs)") }
        #expect(Set(ranBy.values.flatMap { $0 }).count > 1, "the work was split: \(ranBy)")

        // Each recording was processed exactly once: one finished record and one run directory.
        for name in names {
            let folder = cluster.appendingPathComponent(name)
            let record =
                try JSONSerialization.jsonObject(
                    with: Data(contentsOf: folder.appendingPathComponent("batch.json"))) as? [String: Any]
            #expect(record?["status"] as? String == "finished", "\(name): \(record ?? [:])")
            let entries = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            // Beside the run directory: the batch record and the daily table (a sink `path`).
            #expect(entries.filter { !["batch.json", "daily.csv"].contains($0) }.count == 1, "\(name): \(entries)")
        }

        // The last step, then the same inputs on one machine.
        let collected = try BatchSupport.batch([
            Self.pipeline, "--input", input, "--output", cluster.path, "--collect", "daily.csv", "--collect-only",
        ])
        #expect(collected.status == 0, "\(collected.err)")
        let single = dir.appendingPathComponent("single")
        let one = try BatchSupport.batch([
            Self.pipeline, "--input", input, "--output", single.path, "--collect", "daily.csv",
        ])
        #expect(one.status == 0, "\(one.err)")
        // The daily table holds no run-clock column: the two tables are equal as they stand.
        let merged = try BatchSupport.pythonCSV(cluster.appendingPathComponent("daily.csv"))
        let reference = try BatchSupport.pythonCSV(single.appendingPathComponent("daily.csv"))
        #expect(Set(merged.dropFirst().map { $0[0] }) == Set(names), "every recording has a day row")
        #expect(merged == reference)
    }

    /// docs/operating.md shows the sbatch file this test submits, so the two cannot drift apart.
    @Test func operatingPageShowsTheSbatchFile() throws {
        let lines = try BatchSupport.text(URL(fileURLWithPath: Self.sbatchFile)).split(
            separator: "\n", omittingEmptySubsequences: false)
        // The shebang and everything from the first #SBATCH on; the usage comment between is the file's own.
        let shown = ([lines[0]] + lines.drop { !$0.hasPrefix("#SBATCH") }).joined(separator: "\n")
        let readme = try BatchSupport.text(DAQBinary.repository.appendingPathComponent("docs/operating.md"))
        #expect(
            readme.contains("```sh\n" + shown + "```"),
            "docs/operating.md's sbatch block differs from \(Self.sbatchFile)")
    }
}
