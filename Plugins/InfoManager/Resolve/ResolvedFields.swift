import DAQCore
import Foundation

/// The fields `infomanager.resolve` adds, and how an id is read from a sample.
struct ResolvedFields {
    let state: String, language: String, name: String, description: String, url: String, imageURL: String,
        updated: String

    init(prefix: String) {
        state = prefix + "resolve_state"
        language = prefix + "language"
        name = prefix + "name"
        description = prefix + "description"
        url = prefix + "url"
        imageURL = prefix + "image_url"
        updated = prefix + "updated"
    }

    /// The fields as `daq plugins describe` documents them, unprefixed, in the order
    /// ``fill(_:outcomes:)`` sets them.
    static let output = [
        OutputField("resolve_state", .string, "RESOLVED, CACHED, NODATA or UNRESOLVED; null on a sample without an id"),
        OutputField("language", .string, "the language of the answer"),
        OutputField("name", .string, "the element's name"),
        OutputField("description", .string, "its description"),
        OutputField("url", .string, "its link"),
        OutputField("image_url", .string, "its image's link"),
        OutputField("updated", .string, "when it last changed, ISO 8601 as the service states it"),
    ]

    /// The fields under the names this stage gives them.
    var descriptors: [FieldDescriptor] {
        let names = [state, language, name, description, url, imageURL, updated]
        return zip(names, Self.output).map { $1.descriptor.named($0) }
    }

    /// The id a value stands for: text as it is, a whole number in decimal; else `nil`.
    static func id(_ value: Value) -> String? {
        switch value {
        case .string(let s): return s.isEmpty ? nil : s
        case .int(let i): return String(i)
        case .double(let d): return Int64(exactly: d).map { String($0) }
        default: return nil
        }
    }

    static func value(_ state: ResolveState) -> Value {
        switch state {
        case .resolved: return .string("RESOLVED")
        case .noData: return .string("NODATA")
        case .cached: return .string("CACHED")
        case .unresolved: return .string("UNRESOLVED")
        }
    }

    /// `batch` with the added columns, null where a sample had no id or the answer no value.
    func fill(_ batch: Batch, outcomes: [ResolveOutcome?]) -> Batch {
        let n = batch.count
        var states = [Value](repeating: .null, count: n)
        var columns = [[Value]](repeating: [Value](repeating: .null, count: n), count: 6)
        for row in 0..<n {
            guard let outcome = outcomes[row] else { continue }
            states[row] = Self.value(outcome.state)
            guard let a = outcome.answer else { continue }
            columns[0][row] = .string(a.language)
            if let v = a.name { columns[1][row] = .string(v) }
            if let v = a.description { columns[2][row] = .string(v) }
            if let v = a.url { columns[3][row] = .string(v) }
            if let v = a.imageURL { columns[4][row] = .string(v) }
            if let v = a.updated { columns[5][row] = .string(v) }
        }
        var out = batch
        out.setColumn(Column(name: state, values: states))
        for (i, name) in [language, name, description, url, imageURL, updated].enumerated() {
            out.setColumn(Column(name: name, values: columns[i]))
        }
        return out
    }
}

extension Date {
    /// Seconds since 1970 now.
    static var nowSeconds: Double { Date().timeIntervalSince1970 }
}
