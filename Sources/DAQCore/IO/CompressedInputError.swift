/// A compressed file found damaged or cut short while it was read: the file, the compressed
/// offset, and how far its content was read whole.
///
/// Readers raise it after handing out everything before the damage, so a source can end there
/// (under a "skip bad input" setting) or fail, and nothing read whole is lost.
public struct CompressedInputError: Error, CustomStringConvertible, Sendable {
    /// The file.
    public var path: String
    /// What is wrong, and at which compressed byte.
    public var gzip: GzipError
    /// For a line reader, the number of the last whole line read (0 when none was); no line
    /// after it is returned. `nil` for a byte reader.
    public var lastCompleteLine: Int?
    /// Bytes of content read before the damage.
    public var contentOffset: Int64

    public init(path: String, gzip: GzipError, lastCompleteLine: Int?, contentOffset: Int64) {
        self.path = path
        self.gzip = gzip
        self.lastCompleteLine = lastCompleteLine
        self.contentOffset = contentOffset
    }

    public var description: String {
        switch lastCompleteLine {
        case .none: return "\(path): \(gzip), after \(contentOffset) bytes of content"
        case 0?: return "\(path): \(gzip); no line before it is complete"
        case let line?: return "\(path): \(gzip); line \(line) is the last complete line, nothing after it is read"
        }
    }
}
