import DAQCore
import DAQTesting
import Testing

/// One built-in plugin's row in the conformance table: how to configure and feed it, and what
/// it promises. `prepare` runs when the row's test does, so servers live only as long as it.
struct Entry: Sendable, CustomTestStringConvertible {
    let kind: PluginKind
    let type: String
    let prepare: @Sendable () throws -> Prepared

    var testDescription: String { "\(kind.rawValue) \(type)" }

    init(_ kind: PluginKind, _ type: String, _ spec: @escaping @Sendable () throws -> ConformanceSpec) {
        self.kind = kind
        self.type = type
        self.prepare = { Prepared(spec: try spec()) }
    }

    private init(kind: PluginKind, type: String, prepare: @escaping @Sendable () throws -> Prepared) {
        self.kind = kind
        self.type = type
        self.prepare = prepare
    }

    /// A row whose spec needs something kept alive while it runs.
    static func prepared(_ kind: PluginKind, _ type: String, _ prepare: @escaping @Sendable () throws -> Prepared)
        -> Entry
    {
        Entry(kind: kind, type: type, prepare: prepare)
    }
}

/// A spec, and what must stay alive while it runs (a server, a broker, a pseudo-terminal).
struct Prepared {
    var spec: ConformanceSpec
    var keepAlive: [AnyObject] = []
}

/// A built-in plugin the table leaves out, and why; the coverage test prints each.
struct Exclusion: Sendable {
    let kind: PluginKind
    let type: String
    let reason: String
}
