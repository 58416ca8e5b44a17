/// One element of the XML that XDF's header, stream header and footer chunks hold: its name,
/// its text and its child elements. Attributes are read past: the XDF specification puts every
/// value in an element of its own.
public struct XDFElement: Sendable, Equatable {
    /// The tag name.
    public var name: String
    /// The text directly inside it, entities decoded, whitespace kept as written.
    public var text: String
    /// The child elements, in order.
    public var children: [XDFElement]

    /// Creates an element.
    public init(name: String, text: String = "", children: [XDFElement] = []) {
        self.name = name
        self.text = text
        self.children = children
    }

    /// The first child named `name`.
    public func child(_ name: String) -> XDFElement? {
        children.first { $0.name == name }
    }

    /// Every child named `name`, in order.
    public func children(_ name: String) -> [XDFElement] {
        children.filter { $0.name == name }
    }

    /// The element at the end of `path` (child names from here), `nil` when one is missing.
    public func at(_ path: String...) -> XDFElement? {
        var here = self
        for name in path {
            guard let next = here.child(name) else { return nil }
            here = next
        }
        return here
    }

    /// The text of child `name` without surrounding whitespace; `nil` when the child is missing
    /// or empty.
    public func value(_ name: String) -> String? {
        guard let text = child(name)?.trimmedText, !text.isEmpty else { return nil }
        return text
    }

    /// The text without leading or trailing whitespace.
    public var trimmedText: String {
        var bytes = Substring(text).utf8[...]
        while let b = bytes.first, Self.isSpace(b) { bytes = bytes.dropFirst() }
        while let b = bytes.last, Self.isSpace(b) { bytes = bytes.dropLast() }
        return String(Substring(bytes))
    }

    static func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D }
}
