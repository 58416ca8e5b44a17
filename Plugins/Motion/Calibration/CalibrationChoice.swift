import DAQCore

/// The `calibration` key of `motion.calibrate`: fit against gravity (`auto`), apply nothing
/// (`off`), apply given coefficients (`{offset: […], gain: […]}`, optionally `temperature` and
/// `reference`), or reuse a fit recorded earlier (`{from: path}`: a run's `manifest.json` or a
/// fit file).
public enum CalibrationChoice: ConfigValue, Equatable {
    case auto
    case off
    case given(AxisCorrection)
    case from(String)

    public static var configType: String {
        "auto | off or {offset: [double], gain: [double], temperature: [double], reference: double} or {from: path}"
    }

    public var configText: String? {
        switch self {
        case .auto: return "auto"
        case .off: return "off"
        case .given(let c): return "{offset: \(c.offset.configText ?? "[]"), gain: \(c.gain.configText ?? "[]")}"
        case .from(let path): return "{from: \(path)}"
        }
    }

    public init(from decoder: any Decoder) throws {
        if let word = try? decoder.singleValueContainer().decode(String.self) {
            switch word {
            case "auto": self = .auto
            case "off": self = .off
            default:
                throw DecodingError.dataCorrupted(
                    DecodingError.Context(
                        codingPath: decoder.codingPath,
                        debugDescription:
                            "expected auto, off, {offset: […], gain: […]} or {from: path}, found '\(word)'"
                    ))
            }
            return
        }
        let c = try decoder.container(keyedBy: AnyKey.self)
        let known: Set = ["offset", "gain", "temperature", "reference", "from"]
        if let unknown = c.allKeys.first(where: { !known.contains($0.stringValue) }) {
            throw DecodingError.dataCorruptedError(
                forKey: unknown, in: c,
                debugDescription:
                    "unknown key '\(unknown.stringValue)' (expected offset, gain, temperature, reference or from)"
            )
        }
        if c.contains(AnyKey("from")) {
            if let other = c.allKeys.first(where: { $0.stringValue != "from" }) {
                throw DecodingError.dataCorruptedError(
                    forKey: other, in: c,
                    debugDescription: "from: reads the fit from a file; give no coefficients beside it")
            }
            self = .from(try c.decode(String.self, forKey: AnyKey("from")))
            return
        }
        for key in ["offset", "gain"] where !c.contains(AnyKey(key)) {
            throw DecodingError.keyNotFound(
                AnyKey(key),
                DecodingError.Context(
                    codingPath: decoder.codingPath,
                    debugDescription: "given coefficients need offset and gain, three numbers each"))
        }
        self = .given(
            AxisCorrection(
                offset: try c.decode([Double].self, forKey: AnyKey("offset")),
                gain: try c.decode([Double].self, forKey: AnyKey("gain")),
                temperature: try c.decodeIfPresent([Double].self, forKey: AnyKey("temperature")) ?? [0, 0, 0],
                reference: try c.decodeIfPresent(Double.self, forKey: AnyKey("reference")) ?? 0))
    }

    /// The first problem with given coefficients, as (key under `calibration`, message).
    func problem() -> (key: String, message: String)? {
        guard case .given(let c) = self else { return nil }
        for (key, values) in [("offset", c.offset), ("gain", c.gain), ("temperature", c.temperature)] {
            if values.count != 3 { return (key, "needs three numbers, x, y and z; found \(values.count)") }
            if !values.allSatisfy(\.isFinite) { return (key, "needs finite numbers") }
        }
        if c.gain.contains(0) { return ("gain", "a gain of 0 would flatten the axis") }
        if !c.reference.isFinite { return ("reference", "needs a finite temperature in °C") }
        return nil
    }
}
