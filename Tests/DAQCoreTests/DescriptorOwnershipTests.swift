import DAQCore
import DAQTesting
import Foundation
import Testing

/// Each descriptor DAQCore opens is closed once, by its one owner: a second close takes the
/// descriptor of whatever another thread opened meanwhile under the same number.
@Suite("descriptor ownership", .timeLimit(.minutes(20)))
struct DescriptorOwnershipTests {
    @Test func aFileThatIsNoZipIsClosedOnceWhenItsArchiveFailsToOpen() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("daq-nozip-\(UUID().uuidString)").path
        try Data("PK but no zip at all".utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        var reasons: Set<String> = []
        let harmed = DescriptorSentinel.watch {
            // Closed twice, it was another thread's descriptor now and then: once in a few
            // hundred attempts on this machine, so a few thousand catch it.
            for _ in 0..<4000 {
                do {
                    _ = try ZipArchive(path: path)
                } catch {
                    reasons.insert("\(error)")
                }
            }
        }
        #expect(harmed.isEmpty, "\(harmed.count) descriptors closed under their owner, e.g. \(harmed.prefix(3))")
        #expect(reasons == ["\(path): is not a zip archive"])
    }
}
