/// A coding key built from a string: to walk a node tree by an issue's path, and for plugin
/// configurations that read a mapping's keys by hand (to reject unknown nested keys, or to
/// take any keys at all).
public struct AnyKey: CodingKey, Sendable {
    public var stringValue: String
    public var intValue: Int?

    public init(_ string: String) {
        stringValue = string
        intValue = Int(string)
    }

    public init?(stringValue: String) { self.init(stringValue) }

    public init?(intValue: Int) {
        stringValue = String(intValue)
        self.intValue = intValue
    }
}
