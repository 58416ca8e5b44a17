import Foundation
import Testing

/// Times come out of the shipped pipelines as the recordings have them: a scan log's relative
/// times without subtraction noise, a BLE capture's windows dated on the capture's clock.
@Suite("recorded times in the shipped pipelines", .timeLimit(.minutes(20)))
struct RecordedTimesTests {
    static func run(_ pipeline: String) throws -> URL {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("daq-times-\(UUID().uuidString)")
        let r = try DAQBinary.run(
            ["run", pipeline, "--set", "clock=virtual", "--quiet"], environment: ["OUTPUT": out.path])
        #expect(r.status == 0, "\(r.err)")
        return out
    }

    static func files(under dir: URL, suffix: String) throws -> [URL] {
        let all = FileManager.default.enumerator(at: dir, includingPropertiesForKeys: nil)?.allObjects as? [URL] ?? []
        return all.filter { $0.lastPathComponent.hasSuffix(suffix) && !$0.lastPathComponent.hasPrefix("manifest") }
    }

    @Test func aBLECapturesWindowsAreDatedOnTheCapturesClock() throws {
        let out = try Self.run("pipelines/ble-discovery.yaml")
        defer { try? FileManager.default.removeItem(at: out) }
        let log = try #require(try Self.files(under: out, suffix: ".jsonl").first)
        let lines = try String(contentsOf: log, encoding: .utf8).split(separator: "\n")
        // recordings/beacons.btsnoop starts at 1763800000.13 s: 2025-11-22T08:26:40 UTC.
        let dates = lines.compactMap { line -> String? in
            guard let r = line.range(of: #""timestampDate":""#) else { return nil }
            return String(line[r.upperBound...].prefix(19))
        }
        #expect(!dates.isEmpty, "\(lines.prefix(3))")
        for date in dates { #expect(date.hasPrefix("2025-11-22T08:"), "\(date) is not on the capture's clock") }
    }

    @Test func aScanLogsRelativeTimesReadAsWritten() throws {
        let out = try Self.run("pipelines/barcode-replay.yaml")
        defer { try? FileManager.default.removeItem(at: out) }
        let csv = try #require(try Self.files(under: out, suffix: ".csv").first)
        let rows = try String(contentsOf: csv, encoding: .utf8).split(separator: "\n").dropFirst()
        let times = rows.map { $0.split(separator: ",", omittingEmptySubsequences: false)[1] }
        #expect(times.contains("2.15"), "\(times)")
        // recordings/scans.jsonl has millisecond times: no time needs more than three decimals.
        for t in times { #expect((t.split(separator: ".").dropFirst().first?.count ?? 0) <= 3, "\(t)") }
    }
}
