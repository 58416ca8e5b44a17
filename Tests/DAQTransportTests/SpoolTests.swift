import DAQCore
import DAQTesting
import Foundation
import Testing

@testable import DAQTransport

/// The spool's files: what is acknowledged goes, what is not comes back in order, a record cut
/// short by a crash is ignored, and one run at a time holds the directory.
@Suite("mqtt spool", .timeLimit(.minutes(20)))
struct SpoolTests {
    static func directory() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("daq-spool-unit-\(UUID().uuidString)").path
    }

    static func append(_ spool: MessageSpool, _ count: Int) throws -> [UInt64] {
        let first = spool.reserve(count)
        var records: [UInt8] = []
        var sequences: [(UInt64, Int)] = []
        for k in 0..<count {
            let seq = first + UInt64(k)
            let payload = Array("{\"n\":\(seq)}".utf8)
            payload.withUnsafeBytes {
                SpoolRecords.append(
                    sequence: seq, key: "t/\(seq)", options: MQTTSpoolOptions.encode(qos: .atLeastOnce, retain: false),
                    samples: 2, payload: $0, to: &records)
            }
            sequences.append((seq, 2))
        }
        try spool.append(records, sequences: sequences)
        return sequences.map(\.0)
    }

    @Test func unacknowledgedMessagesComeBackInOrder() throws {
        let dir = Self.directory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        do {
            let (spool, recovered) = try MessageSpool.open(directory: dir, segmentBytes: 200)
            #expect(recovered.isEmpty)
            let seqs = try Self.append(spool, 10) + Self.append(spool, 10)
            #expect(spool.spooledSamples == 40)
            spool.acknowledge(Array(seqs[0..<12]) + [seqs[15]])
            #expect(spool.spooledSamples == 14)
            spool.close()
        }
        let (again, recovered) = try MessageSpool.open(directory: dir, segmentBytes: 200)
        #expect(recovered.map(\.sequence) == [13, 14, 15, 17, 18, 19, 20])
        #expect(recovered.first?.key == "t/13" && recovered.first?.payload == Array("{\"n\":13}".utf8))
        #expect(again.reserve(1) == 21, "sequences go on after the highest seen")
        again.acknowledge(recovered.map(\.sequence))
        again.close()
        let left = try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.hasSuffix(".spool") }
        #expect(left.isEmpty, "acknowledged segments are deleted")
    }

    /// QoS and retain sit in the options' two bytes as they did in the MQTT-only layout; a
    /// record another sink wrote (a `postgres` flush, options 0xFF01) holds no QoS.
    @Test func optionsHoldQoSAndRetain() throws {
        #expect(MQTTSpoolOptions.encode(qos: .atLeastOnce, retain: true) == 0x0101)
        let decoded = try #require(MQTTSpoolOptions.decode(0x0100))
        #expect(decoded.qos == .atLeastOnce && !decoded.retain)
        #expect(MQTTSpoolOptions.decode(0xFF01) == nil)
    }

    @Test func aRecordCutShortIsIgnored() throws {
        let dir = Self.directory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        do {
            let (spool, _) = try MessageSpool.open(directory: dir)
            _ = try Self.append(spool, 3)
            spool.close()
        }
        let segment = try #require(
            try FileManager.default.contentsOfDirectory(atPath: dir).first { $0.hasSuffix(".spool") })
        let handle = try #require(FileHandle(forWritingAtPath: dir + "/" + segment))
        try handle.seekToEnd()
        try handle.write(contentsOf: [0, 0, 0, 50, 1, 2, 3])  // a length of 50 and only 3 bytes
        try handle.close()
        let (_, recovered) = try MessageSpool.open(directory: dir)
        #expect(recovered.map(\.sequence) == [1, 2, 3])
    }

    @Test func oneRunAtATime() throws {
        let dir = Self.directory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let (spool, _) = try MessageSpool.open(directory: dir)
        #expect {
            _ = try MessageSpool.open(directory: dir)
        } throws: { "\($0)".contains("in use by another running daq") }
        spool.close()
        _ = try MessageSpool.open(directory: dir)
    }

    /// Whether another process (Python's `fcntl.lockf`, an implementation of its own) can take
    /// the spool's lock now; Python 3 is required.
    static func otherProcessCanLock(_ dir: String) throws -> Bool {
        let r = try Process.runToEnd(
            "python3",
            [
                "-c",
                "import fcntl, sys\nf = open(sys.argv[1] + '/lock', 'r+')\n"
                    + "try:\n    fcntl.lockf(f, fcntl.LOCK_EX | fcntl.LOCK_NB)\nexcept OSError:\n    sys.exit(3)\n",
                dir,
            ], timeout: 60)
        try #require([0, 3].contains(r.status), "python3 could not run the lock check: \(r.errors)")
        return r.status == 0
    }

    /// The lock is a record lock, which no child process inherits, so no open has to wait for
    /// a child spawned at the moment a spool closed; other processes are still kept out.
    @Test func anotherProcessIsKeptOutUntilTheSpoolCloses() throws {
        let dir = Self.directory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let (spool, _) = try MessageSpool.open(directory: dir)
        #expect(try !Self.otherProcessCanLock(dir), "another process took the lock of an open spool")
        spool.close()
        #expect(try Self.otherProcessCanLock(dir))
        _ = try MessageSpool.open(directory: dir)
    }
}
