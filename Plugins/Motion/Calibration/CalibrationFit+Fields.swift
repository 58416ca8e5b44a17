import DAQCore
import Foundation

/// A calibration fit as the run manifest's `results` keeps it and `calibration: {from: path}`
/// reads it back: `accepted`, `offset`, `gain`, `temperature`, `reference`, `error_before_mg`,
/// `error_after_mg`, `still_windows`, `iterations`, `reason`.
extension CalibrationFit {
    /// The type the record is marked with, so a reader finds it among other results.
    static let recordType = "motion.calibrate"

    var fields: Fields {
        func numbers(_ a: [Double]) -> Value { .array(a.map(Value.double)) }
        return [
            "type": .string(Self.recordType), "accepted": .bool(accepted),
            "offset": numbers(correction.offset), "gain": numbers(correction.gain),
            "temperature": numbers(correction.temperature), "reference": .double(correction.reference),
            "error_before_mg": errorBefore.map(Value.double) ?? .null,
            "error_after_mg": errorAfter.map(Value.double) ?? .null,
            "still_windows": .int(Int64(stillWindows)), "iterations": .int(Int64(iterations)),
            "reason": .string(reason),
        ]
    }

    /// Reads a record; a hand-written fit file needs only `offset` and `gain` (it is then
    /// taken as accepted).
    /// - Throws: a message naming the field that is missing or wrong.
    init(fields: Fields) throws(RecordProblem) {
        func numbers(_ key: String, default value: [Double]? = nil) throws(RecordProblem) -> [Double] {
            guard let field = fields[key], !field.isNull else {
                if let value { return value }
                throw RecordProblem("has no '\(key)'")
            }
            guard case .array(let items) = field, items.count == 3,
                let parsed = Optional(items.compactMap(\.doubleValue)), parsed.count == 3,
                parsed.allSatisfy(\.isFinite)
            else { throw RecordProblem("'\(key)' is not three finite numbers") }
            return parsed
        }
        let correction = AxisCorrection(
            offset: try numbers("offset"), gain: try numbers("gain"),
            temperature: try numbers("temperature", default: [0, 0, 0]),
            reference: fields["reference"]?.doubleValue ?? 0)
        guard !correction.gain.contains(0) else { throw RecordProblem("'gain' has a 0") }
        self.init(
            correction: correction, errorBefore: fields["error_before_mg"]?.doubleValue,
            errorAfter: fields["error_after_mg"]?.doubleValue,
            stillWindows: Int(fields["still_windows"]?.intValue ?? 0),
            iterations: Int(fields["iterations"]?.intValue ?? 0), accepted: fields["accepted"]?.boolValue ?? true,
            reason: fields["reason"]?.stringValue ?? "given")
    }

    /// The fit recorded in the file at `path`: a run's `manifest.json` (its `results` entry made
    /// by motion.calibrate; with several, the one of `component`), or a fit file, a JSON object
    /// with at least `offset` and `gain`.
    /// - Throws: ``DAQError`` naming the file and what it lacks.
    static func load(path: String, component: String) throws -> CalibrationFit {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw DAQError(
                .invalidConfiguration,
                "calibration: cannot read the fit file '\(path)' (a run's manifest.json or a JSON object with offset and gain)"
            )
        }
        let object: Fields
        do {
            guard case .object(let o) = try JSONParser.parse([UInt8](data)) else {
                throw RecordProblem("is not a JSON object")
            }
            object = o
        } catch {
            throw DAQError(.invalidConfiguration, "calibration: \(path): \(error)")
        }
        var record = object
        if case .object(let results)? = object["results"] {
            let fits = zip(results.keys, results.values).compactMap { name, value -> (String, Fields)? in
                guard case .object(let f) = value, f["type"]?.stringValue == recordType else { return nil }
                return (name, f)
            }
            guard let chosen = fits.count == 1 ? fits.first : fits.first(where: { $0.0 == component }) else {
                let names = fits.map(\.0)
                throw DAQError(
                    .invalidConfiguration,
                    names.isEmpty
                        ? "calibration: \(path) records no motion.calibrate fit in its results"
                        : "calibration: \(path) records fits of \(names.joined(separator: ", ")); none is named '\(component)'"
                )
            }
            record = chosen.1
        }
        do {
            return try CalibrationFit(fields: record)
        } catch {
            throw DAQError(.invalidConfiguration, "calibration: the fit in \(path) \(error)")
        }
    }
}

/// What is wrong with a recorded fit.
struct RecordProblem: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
