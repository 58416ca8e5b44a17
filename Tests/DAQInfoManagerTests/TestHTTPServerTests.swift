import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The test server closes only its own descriptors, once: tests stop it by `defer` and again
/// by hand, and the second stop closed whatever the run had opened meanwhile under the number
/// its listener had had.
@Suite("test HTTP server", .timeLimit(.minutes(20)))
struct TestHTTPServerTests {
    @Test func stoppingItTwiceClosesNothingOpenedInBetween() throws {
        let server = try TestHTTPServer { _, _ in .silent }
        server.stop()
        // Enough descriptors to take every number free now, the listener's if it was freed.
        let held = (0..<64).map { _ in open("/dev/null", O_RDONLY | O_CLOEXEC) }
        defer { for fd in held where fd >= 0 { close(fd) } }
        try #require(held.allSatisfy { $0 >= 0 })
        let before = held.map(Self.identity)
        server.stop()
        #expect(held.map(Self.identity) == before, "a descriptor opened after the first stop was closed by the second")
    }

    /// The file a descriptor refers to, or nil once it is closed.
    static func identity(_ fd: Int32) -> [UInt]? {
        var st = stat()
        guard fstat(fd, &st) == 0 else { return nil }
        return [UInt(st.st_dev), UInt(st.st_ino)]
    }
}
