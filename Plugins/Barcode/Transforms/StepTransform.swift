import DAQCore

/// Turns scanned step cards into step changes: a code `STEP:walk/return` (or one listed in
/// `codes`) makes `walk/return` the run's step from the scan's time on, so every logger marks it.
public final class StepTransform: TransformPlugin {
    public struct Configuration: PluginConfiguration {
        @Setting(type: "string | null", "A code starting with it names the step after it.") var prefix: String? =
            "STEP:"
        // A list, not a mapping: codes are mostly digits, and mapping keys of digits are not
        // reliably read back as text.
        @Setting(key: "codes", "Codes that stand for steps, for cards printed without a prefix.") var cards: [Card] = []
        @Setting("The field holding the code.") var field = "code"

        public init() {}

        /// Reads the keys; `prefix: null` (no prefix, only `codes`) differs from leaving it out.
        public init(from decoder: any Decoder) throws {
            self.init()
            try readSettings(from: decoder)
            let c = try decoder.container(keyedBy: AnyKey.self)
            if c.contains(AnyKey("prefix")), try c.decodeNil(forKey: AnyKey("prefix")) { prefix = nil }
        }

        public func validate() throws {
            if prefix == "" { throw $prefix.issue("must not be empty; use null to match only `codes`") }
            if prefix == nil && cards.isEmpty { throw $cards.issue("give codes, a prefix, or both") }
        }
    }

    /// One configured step card.
    struct Card: ConfigValue {
        var code: String
        var step: String

        static var configType: String { "{code, step}" }
        var configText: String? { "{code: \(code), step: \(step)}" }
    }

    public static let typeName = "barcode.step"
    public static let changesSteps = true
    public static let summary = "Scanned step cards (STEP:path, or configured codes) change the run's step path."
    public static let output = StreamOutput(
        .input, [OutputField("step", .string, "on a step card's own sample: the step it starts")],
        note: "the input's samples; each from a card on is in the card's step")

    private let config: Configuration
    /// Step path per card code; a code listed twice takes its last step.
    private let codes: [String: String]

    public init(configuration: Configuration, context: PluginContext) throws {
        config = configuration
        var codes: [String: String] = [:]
        for card in configuration.cards { codes[card.code] = card.step }
        self.codes = codes
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
        if let path = codes[code] { return path }
        if let prefix = config.prefix, code.hasPrefix(prefix), code.count > prefix.count {
            return String(code.dropFirst(prefix.count))
        }
        return nil
    }
}
