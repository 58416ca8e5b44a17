/// A device recording that cannot be read as a whole: `path: reason`, where the reason names
/// the byte offset or record when there is one.
struct DeviceFileError: Error, CustomStringConvertible {
    var path: String
    var reason: String
    var description: String { "\(path): \(reason)" }
}
