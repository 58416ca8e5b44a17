import DAQCore

/// One element string: an Application Identifier and its data.
public struct GS1Element: Sendable, Equatable {
    /// The AI, `"01"`.
    public var ai: String
    /// The field name, `"gtin"`.
    public var name: String
    /// GS1's data title, `"GTIN"`.
    public var title: String
    /// The data as it stands in the code.
    public var raw: String
    /// The data made useful: an ISO date for dates, a number for measures and amounts (with
    /// the AI's decimals applied), text otherwise — GTINs keep their leading zeros.
    public var value: Value
    /// ISO 4217 numeric currency of an amount or price (391n, 393n).
    public var currency: String?
    /// Whether the data passed every check; named fields are given only for valid data.
    public var isValid = true
}

/// What a code holds as GS1 data, with every problem found and where.
public struct GS1Data: Sendable {
    /// The element strings in the order of the code.
    public var elements: [GS1Element] = []
    /// `"offset N: reason"`, offset counting characters of the code from 0.
    public var errors: [String] = []

    /// Fields by name (`gtin`, `expiry_date`, …) for valid data and, under `gs1`, every element
    /// by AI (`{"01": …}`) as it stands in the code, with `gs1_error` when something was wrong.
    public func fields() -> Fields {
        var f = Fields()
        var byAI = Fields()
        for e in elements {
            byAI[e.ai] = .string(e.raw)
            guard e.isValid else { continue }
            f[e.name] = e.value
            if let c = e.currency { f[e.name + "_currency"] = .string(c) }
        }
        f["gs1"] = .object(byAI)
        if !errors.isEmpty { f["gs1_error"] = .string(errors.joined(separator: "; ")) }
        return f
    }
}
