/// The pipeline `name`: it names every run directory (`OUT/<name>-<UTC start>/`), so it must be
/// one plain path component, never a path.
public enum PipelineName {
    /// The longest name: with the start time and a `-N` suffix it stays far below the 255
    /// bytes a directory name may have.
    public static let maxBytes = 128

    /// Why `name` cannot be a pipeline name, or `nil` when it can.
    public static func problem(_ name: String) -> String? {
        let bytes = Array(name.utf8)
        if bytes.isEmpty { return "is empty" }
        if let i = bytes.firstIndex(where: { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "\\") }) {
            return "contains '\(Character(UnicodeScalar(bytes[i])))' at byte \(i + 1); it names a directory, not a path"
        }
        if let i = bytes.firstIndex(where: { $0 < 0x20 || $0 == 0x7F }) {
            return "contains the control character \(hex(bytes[i])) at byte \(i + 1)"
        }
        if bytes[0] == UInt8(ascii: ".") {
            return "begins with '.'; it names a directory, which would be hidden or a path"
        }
        if bytes.count > maxBytes { return "is \(bytes.count) bytes long; at most \(maxBytes)" }
        return nil
    }

    /// `name` as messages show it: quoted, control characters escaped, cut at 60 characters.
    public static func quoted(_ name: String) -> String {
        var out = ""
        for scalar in name.unicodeScalars.prefix(60) {
            out +=
                scalar.value < 0x20 || scalar.value == 0x7F ? "\\u{\(String(scalar.value, radix: 16))}" : String(scalar)
        }
        return "'" + out + (name.unicodeScalars.count > 60 ? "…" : "") + "'"
    }

    private static func hex(_ b: UInt8) -> String {
        b == 0 ? "NUL" : "0x" + (b < 16 ? "0" : "") + String(b, radix: 16, uppercase: true)
    }
}
