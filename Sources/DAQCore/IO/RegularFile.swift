#if canImport(Glibc)
    import Glibc
#endif

/// Whether a path names a file that can be read twice.
public enum RegularFile {
    /// Whether `path` is a regular file (following symbolic links): a FIFO, a device or
    /// standard input is not, and reading its header to describe it would take that data from
    /// the run. `false` when it does not exist: opening it reports why.
    public static func exists(at path: String) -> Bool {
        var s = stat()
        return stat(path, &s) == 0 && (s.st_mode & S_IFMT) == S_IFREG
    }

    /// Whether `path` names something that is not a regular file but exists (a FIFO, a
    /// device): what must not be read ahead to describe it.
    public static func isOther(at path: String) -> Bool {
        var s = stat()
        return stat(path, &s) == 0 && (s.st_mode & S_IFMT) != S_IFREG
    }
}
