import Foundation
import Testing

/// `daq batch --shard` as the tasks of a job array see it, with the real binary.
@Suite("daq batch --shard", .timeLimit(.minutes(20)))
struct BatchShardTests {
    static let pipeline = DAQBinary.repository.appendingPathComponent("pipelines/batch-features.yaml").path

    /// With few inputs some array tasks get none: that is not a failure.
    @Test func aShardWithNoRecordingsSucceeds() throws {
        let dir = try BatchSupport.scratch("empty-shard")
        try BatchSupport.writeRecordings(["only"], in: dir)
        var statuses: [Int32] = []
        var nothing = 0
        for k in 1...2 {
            let r = try BatchSupport.batch([
                Self.pipeline, "--input", dir.path + "/*.cwa", "--output", dir.appendingPathComponent("out").path,
                "--shard", "\(k)/2",
            ])
            statuses.append(r.status)
            if r.err.contains("daq: shard \(k)/2 has none of the 1 recordings; nothing to do") { nothing += 1 }
        }
        #expect(statuses == [0, 0])
        #expect(nothing == 1)
    }
}
