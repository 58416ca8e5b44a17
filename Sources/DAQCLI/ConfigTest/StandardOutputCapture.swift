#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Sends file descriptor 1 to a file for the duration of a call.
///
/// Console sinks write straight to the descriptor, so this is how `daq test` keeps their
/// output out of its report and makes it something a case can assert on. Cases run one at a
/// time, which is what makes swapping a process-wide descriptor safe here.
enum StandardOutputCapture {
    /// Runs `body` with standard output going to `path` (created or truncated).
    /// - Throws: what `body` throws.
    static func redirect<T>(to path: String, _ body: () throws -> T) throws -> T {
        fflush(nil)  // what the runner printed so far belongs to the terminal
        let saved = dup(STDOUT_FILENO)
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        guard saved >= 0, fd >= 0 else {
            if saved >= 0 { close(saved) }
            return try body()
        }
        dup2(fd, STDOUT_FILENO)
        close(fd)
        defer {
            fflush(nil)
            dup2(saved, STDOUT_FILENO)
            close(saved)
        }
        return try body()
    }
}
