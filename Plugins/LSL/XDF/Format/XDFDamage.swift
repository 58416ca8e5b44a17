/// A place where an XDF file is not what the specification says: the file, the chunk's number
/// (1 for the first chunk after the magic `XDF:`), the byte offset where it starts, and what was
/// expected there.
public struct XDFDamage: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file.
    public var path: String
    /// The chunk's number, counting from 1.
    public var chunk: Int
    /// The offset of the chunk's first byte (its NumLengthBytes) in the file's content, after
    /// decompression for `.xdf.gz`.
    public var offset: Int64
    /// What is wrong.
    public var problem: String
    /// Where reading went on after it: the offset just after the next Boundary chunk, `nil`
    /// when none follows and the file ends there.
    public var resumedAt: Int64?

    /// Creates a report.
    public init(path: String, chunk: Int, offset: Int64, problem: String, resumedAt: Int64? = nil) {
        self.path = path
        self.chunk = chunk
        self.offset = offset
        self.problem = problem
        self.resumedAt = resumedAt
    }

    public var description: String {
        let then =
            resumedAt.map { "; read on after the next boundary chunk, at byte \($0)" } ?? "; nothing after it is read"
        return "\(path): chunk \(chunk) at byte \(offset): \(problem)\(then)"
    }
}

/// A file that is not XDF at all, or cannot be read.
public struct XDFFileError: Error, Sendable, CustomStringConvertible {
    /// The file.
    public var path: String
    /// What is wrong.
    public var problem: String

    /// Creates an error.
    public init(path: String, problem: String) {
        self.path = path
        self.problem = problem
    }

    public var description: String { "\(path): \(problem)" }
}
