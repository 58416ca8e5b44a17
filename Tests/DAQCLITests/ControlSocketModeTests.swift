import Foundation
import Testing

@testable import DAQCLI

#if canImport(Glibc)
    import Glibc
#endif

/// The control socket is its owner's alone from the moment it exists, without the process-wide
/// `umask` other threads would create files under meanwhile.
@Suite("control socket mode", .timeLimit(.minutes(20)))
struct ControlSocketModeTests {
    @Test func theSocketIsOwnerOnlyAndNothingIsLeftBeside() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("daq-sock-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let before = umask(0o022)
        umask(before)
        let path = dir + "/run.sock"
        let fd = try UnixSocket.listen(at: path)
        defer { close(fd) }
        var st = stat()
        #expect(lstat(path, &st) == 0)
        #expect(st.st_mode & S_IFMT == S_IFSOCK && st.st_mode & 0o777 == 0o600, "mode \(String(st.st_mode, radix: 8))")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["run.sock"])
        // The process's umask is as it was.
        let after = umask(0o022)
        umask(after)
        #expect(after == before)
        let client = try UnixSocket.connect(to: path)
        close(client)
    }
}
