import DAQCore
import DAQTesting
import Foundation
import Testing

/// The hostile .gt3x files of Tests/Fixtures/hostile (scripts/make-hostile-fixtures.py): numbers
/// that used to trap are errors naming the file.
@Suite struct GT3XHostileTests {
    static func fixture(_ name: String) -> String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/hostile/\(name)").path
    }

    @Test(arguments: [
        ("rate-inf.gt3x", "info.txt's Sample Rate is inf; expected from 1 to 10000"),
        ("rate-1e300.gt3x", "info.txt's Sample Rate is 1e+300; expected from 1 to 10000"),
        ("zip64-count.gt3x", "the member count in the zip64 record at byte "),
        ("zip64-size.gt3x", "the directory size in the zip64 record at byte "),
        ("zip64-locator.gt3x", "the zip64 record offset in the locator at byte "),
    ])
    func aNumberThatUsedToTrapIsAnError(name: String, message: String) {
        let path = Self.fixture(name)
        let said: String
        do {
            let (_, failure) = replayUntilFailure(try replay(path))
            said = failure.map { "\($0)" } ?? "no error"
        } catch {
            said = "\(error)"
        }
        #expect(said.hasPrefix("\(path): \(message)"), "\(said)")
    }

    /// An hours part beyond any zone is no zone: the clock is taken as UTC, as when none is named.
    @Test func aZoneThatOverflowsIsNoZone() throws {
        let (samples, events) = try replayAll(Self.fixture("zone-overflow.gt3x"))
        #expect(samples.count == 60)
        #expect(events.notices.contains { $0.hasPrefix("info.txt names no time zone") }, "\(events.notices)")
    }
}
