import Foundation

/// Runs a program as a user with no privileges, for checks that root would pass by its rights:
/// a file or device its mode keeps from others is opened by root all the same.
///
/// CI runs as root, so such a check is made in a child that `setpriv` (util-linux) has turned
/// into `nobody` (uid and gid 65534, no supplementary groups, no capabilities). A test run by
/// another user runs the child as that user, who is unprivileged already. Either way the check
/// runs; none is skipped.
public enum Unprivileged {
    /// The numeric id of `nobody` and `nogroup` on Debian.
    public static let id = 65534

    /// Runs `executable` with `arguments` to its end as an unprivileged user, with `HOME` at the
    /// temporary directory (root's is not its to write), as ``Foundation/Process/runToEnd(input:timeout:)`` does.
    /// - Throws: What `run()` throws, or ``ChildTimeout``.
    public static func run(
        _ executable: String, _ arguments: [String], directory: String? = nil, timeout: Double = 120
    ) throws -> ChildOutput {
        let asRoot = getuid() == 0
        let command =
            asRoot
            ? ["setpriv", "--reuid=\(id)", "--regid=\(id)", "--clear-groups", "--", executable] + arguments
            : [executable] + arguments
        return try Process.runToEnd(
            command[0], Array(command.dropFirst()), directory: directory,
            environment: ["HOME": FileManager.default.temporaryDirectory.path], timeout: timeout)
    }
}
