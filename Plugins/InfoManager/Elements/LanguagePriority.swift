import Foundation

/// Chooses, from the languages a service has, the first one a client asked for.
///
/// The client's list is in priority order (`en-GB,de`). For each entry in turn: the same tag
/// (case does not matter), then its primary language (`en` for `en-GB`), then any regional
/// variant of it (`en-US` for `en`). Only when none of the listed languages is available does
/// the element's own first language answer, so a client always gets something readable and
/// sees from `language` that it is not what it asked for.
public enum LanguagePriority {
    /// Splits a `lang` query value (`en-GB, de;q=0.8`) into tags; quality values are ignored,
    /// the order is the priority.
    public static func parse(_ query: String?) -> [String] {
        guard let query else { return [] }
        return query.split(separator: ",").compactMap { part in
            let tag = part.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
            return tag.isEmpty || tag == "*" ? nil : tag
        }
    }

    /// The index in `available` of the language to answer in; `nil` when `available` is empty.
    public static func choose(_ requested: [String], from available: [String]) -> Int? {
        guard !available.isEmpty else { return nil }
        let lower = available.map { $0.lowercased() }
        for tag in requested.map({ $0.lowercased() }) {
            if let i = lower.firstIndex(of: tag) { return i }
            let primary = tag.split(separator: "-").first.map(String.init) ?? tag
            if let i = lower.firstIndex(of: primary) { return i }
            if let i = lower.firstIndex(where: { $0.hasPrefix(primary + "-") }) { return i }
        }
        return 0
    }
}
