import Foundation
import Testing

/// `scripts/check-threading.sh`: plugins ask their StageContext for timers, watches and
/// blocking work; the check names every file:line that threads or blocks on its own.
@Suite("threading check", .timeLimit(.minutes(20)))
struct ThreadingCheckTests {
    /// Runs the check over `files` (path → text) laid out in a fresh directory.
    private static func check(_ files: [String: String], allowlist: (String) -> String = { _ in "" }) throws -> (
        status: Int32, err: String, root: String
    ) {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("daq-threading-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        for (path, text) in files {
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
        }
        let list = root.appendingPathComponent("allowlist.txt")
        try allowlist(root.path).write(to: list, atomically: true, encoding: .utf8)
        let r = try DAQBinary.tool(["env", "ALLOWLIST=\(list.path)", "bash", "scripts/check-threading.sh", root.path])
        return (r.status, r.err, root.path)
    }

    @Test func everyWayOfThreadingOrBlockingIsNamedByFileAndLine() throws {
        let bad = """
            import DAQCore
            import Dispatch

            /// # Thread safety: a doc comment may say the words.
            final class Bad {
                let queue = DispatchQueue(label: "mine")
                let gate = DispatchSemaphore(value: 0)
                let condition = NSCondition()
                func run() {
                    queue.asyncAfter(deadline: .now() + 1) {}
                    Thread { }.start()
                    usleep(10)
                    _ = try? future.wait()
                    // DispatchQueue in a comment is fine.
                }
            }
            """
        let r = try Self.check(["Plugins/X/Bad.swift": bad, "Plugins/X/Good.swift": "func waitForFirstOutcome() {}\n"])
        #expect(r.status != 0)
        for line in [2, 6, 7, 8, 10, 11, 12, 13] {
            #expect(r.err.contains("\(r.root)/Plugins/X/Bad.swift:\(line): "), "line \(line) not named: \(r.err)")
        }
        #expect(!r.err.contains("Bad.swift:4:") && !r.err.contains("Bad.swift:14:") && !r.err.contains("Good.swift"))
    }

    @Test func anAllowlistedFilePassesAndAnEntryNoLongerNeededFails() throws {
        let files = ["Plugins/X/Old.swift": "import Dispatch\n", "Plugins/X/New.swift": "import DAQCore\n"]
        let listed = try Self.check(files) { "# not moved yet\n\($0)/Plugins/X/Old.swift\n" }
        #expect(listed.status == 0, "\(listed.err)")
        let stale = try Self.check(files) { "\($0)/Plugins/X/Old.swift\n\($0)/Plugins/X/New.swift\n" }
        #expect(stale.status != 0)
        #expect(
            stale.err.contains("\(stale.root)/Plugins/X/New.swift no longer threads or blocks itself"), "\(stale.err)")
    }

    @Test func thePluginsOfThisRepositoryPassTheCheck() throws {
        let r = try DAQBinary.tool(["bash", "scripts/check-threading.sh"])
        #expect(r.status == 0, "\(r.err)")
    }
}
