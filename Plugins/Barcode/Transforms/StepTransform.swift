import DAQCore

/// Turns scanned step cards into step changes: a code `STEP:walk/return` (or one listed in
/// `codes`) makes `walk/return` the run's step from the scan's time on, so every logger marks it.
public final class StepTransform: TransformPlugin {
    public struct Configuration: PluginConfiguration {
        var prefix: String? = "STEP:"
        var codes: [String: String] = [:]
        var field = "code"

        enum CodingKeys: String, CodingKey { case prefix, codes, field }

        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            if c.contains(.prefix), try c.decodeNil(forKey: .prefix) {
                prefix = nil
            } else {
                prefix = try c.decodeIfPresent(String.self, forKey: .prefix) ?? "STEP:"
            }
            // A list, not a mapping: codes are mostly digits, and mapping keys of digits are
            // not reliably read back as text.
            for card in try c.decodeIfPresent([Card].self, forKey: .codes) ?? [] { codes[card.code] = card.step }
            field = try c.decodeIfPresent(String.self, forKey: .field) ?? "code"
        }

        public func validate() throws {
            if prefix == "" { throw ConfigIssue(key: "prefix", "must not be empty; use null to match only `codes`") }
            if prefix == nil && codes.isEmpty { throw ConfigIssue(key: "codes", "give codes, a prefix, or both") }
        }
    }

    /// One configured step card.
    struct Card: Decodable {
        var code: String
        var step: String
    }

    public static let typeName = "barcode.step"
    public static let changesSteps = true
    public static let summary = "Scanned step cards (STEP:path, or configured codes) change the run's step path."
    public static let configKeys: [ConfigKey] = [
        ConfigKey("prefix", "string | null", default: "STEP:", "A code starting with it names the step after it."),
        ConfigKey("codes", "[{code, step}]", "Codes that stand for steps, for cards printed without a prefix."),
        ConfigKey("field", "string", default: "code", "The field holding the code."),
    ]

    private let config: Configuration

    public init(configuration: Configuration, context: PluginContext) throws {
        config = configuration
    }

    public func process(_ batch: inout Batch, context: StageContext) throws {
        guard let column = batch.column(config.field) else { return }
        var steps: [Value] = []
        var notCards: [Bool] = []
        var any = false
        // The step of the last card so far: a card's own sample and those after it in this batch
        // are in its step. One pass, so a batch with many cards stays linear.
        var current: String?
        for i in 0..<batch.count {
            if case .string(let code) = column[i], let path = step(for: code) {
                context.changeStep(to: path, at: batch.uptimes[i])
                context.notice("step card '\(code)' at \(batch.uptimes[i]) s: step is now '\(path)'")
                steps.append(.string(path))
                notCards.append(false)
                any = true
                current = path
            } else {
                steps.append(.null)
                notCards.append(true)
            }
            if let current { batch.setStepPath(current, at: i) }
        }
        // Only a card's own sample has a `step` field; the others never had one.
        if any { batch.setColumn(Column(name: "step", values: steps, absent: notCards)) }
    }

    private func step(for code: String) -> String? {
        if let path = config.codes[code] { return path }
        if let prefix = config.prefix, code.hasPrefix(prefix), code.count > prefix.count { return String(code.dropFirst(prefix.count)) }
        return nil
    }
}
