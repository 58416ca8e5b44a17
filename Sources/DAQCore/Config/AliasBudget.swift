import Yams

/// Refuses YAML whose aliases expand far beyond what the file says ("billion laughs").
///
/// Yams composes an alias as a copy-on-write copy of its anchor's node, so composing is cheap;
/// it is every later walk (substitution, validation, decoding) that pays for the expansion,
/// exponentially in the depth of nested aliases. This walk counts each anchored node once,
/// by the identity of its `Anchor` (a class, so a redefined anchor is a new one), and so
/// costs what the file costs, not what it expands to.
public enum AliasBudget {
    /// How many nodes aliases may add to a document beyond the nodes it writes out.
    public static let maxExpandedNodes = 100_000
    /// How many times a document may use aliases.
    public static let maxAliases = 10_000

    /// Throws when `root`'s aliases expand past the budget, naming the anchor that crossed it.
    /// - Throws: ``ConfigError`` with one diagnostic at that anchor's definition.
    public static func check(_ root: Node, file: String) throws(ConfigError) {
        var walk = Walk()
        walk.size(of: root)
        guard let anchor = walk.crossed else { return }
        let message =
            walk.aliases > maxAliases
            ? "anchor '&\(anchor.name)' is aliased once too often: a file may use at most \(maxAliases) aliases"
            : "aliases of '&\(anchor.name)' expand the file by more than \(maxExpandedNodes) nodes "
                + "(nested aliases multiply); write the repeated part out or reference it less often"
        throw ConfigError([
            Diagnostic(file: file, line: anchor.mark?.line, column: anchor.mark?.column, message: message)
        ])
    }

    private struct Walk {
        var sizes: [ObjectIdentifier: Int] = [:]
        var added = 0
        var aliases = 0
        /// The anchor whose alias crossed a limit; the walk stops adding once it is set.
        var crossed: (name: String, mark: Mark?)?

        @discardableResult
        mutating func size(of node: Node) -> Int {
            guard crossed == nil else { return 0 }
            if let anchor = node.anchor, let known = sizes[ObjectIdentifier(anchor)] {
                aliases += 1
                added += known
                if added > AliasBudget.maxExpandedNodes || aliases > AliasBudget.maxAliases {
                    crossed = (anchor.rawValue, node.mark)
                }
                return known
            }
            var total = 1
            switch node {
            case .mapping(let mapping):
                for (key, value) in mapping { total += size(of: key) + size(of: value) }
            case .sequence(let sequence):
                for element in sequence { total += size(of: element) }
            case .scalar, .alias:
                break
            }
            if let anchor = node.anchor { sizes[ObjectIdentifier(anchor)] = total }
            return total
        }
    }
}
