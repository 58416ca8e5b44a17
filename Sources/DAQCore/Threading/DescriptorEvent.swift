/// What a descriptor watch waits for: see ``StageContext/watch(fileDescriptor:for:closesDescriptor:_:)``.
public enum DescriptorEvent: Sendable {
    /// Data to read, the end of input, or an error the next `read` reports.
    case read
    /// Room to write without blocking.
    case write
}
