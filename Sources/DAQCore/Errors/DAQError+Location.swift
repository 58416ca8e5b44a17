extension DAQError {
    /// Where in a file a problem was found: a line (and column), or a byte offset.
    public struct Location: Sendable, Hashable, CustomStringConvertible {
        /// The file, as the user named it.
        public var file: String
        /// 1-based line.
        public var line: Int?
        /// 1-based column, counted in Unicode scalars.
        public var column: Int?
        /// 0-based byte offset in the file as it is on disk (a compressed file's compressed byte).
        public var byteOffset: Int64?

        /// A place by line and column, as compilers and the pipeline validator give it.
        public init(file: String, line: Int? = nil, column: Int? = nil) {
            self.file = file
            self.line = line
            self.column = column
        }

        /// A place by byte offset, as binary and compressed readers give it.
        public init(file: String, byteOffset: Int64) {
            self.file = file
            self.byteOffset = byteOffset
        }

        /// `file:line:column`, `file:line`, `file at byte N` or `file`.
        public var description: String {
            if let line { return column.map { "\(file):\(line):\($0)" } ?? "\(file):\(line)" }
            if let byteOffset { return "\(file) at byte \(byteOffset)" }
            return file
        }
    }
}
