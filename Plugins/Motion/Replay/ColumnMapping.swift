import DAQCore
import Foundation

/// Which columns hold the time and the three axes: named in configuration, or found by name.
public struct ColumnMapping: SettingGroup, Hashable {
    @Setting("The time column.") var time: String?
    @Setting("The x axis column.") var x: String?
    @Setting("The y axis column.") var y: String?
    @Setting("The z axis column.") var z: String?

    public init() {}

    static let timeNames = ["timestamp", "time", "t", "ts", "uptime", "seconds", "time_s", "timestamp_ms", "time_ms"]

    /// The indices of time, x, y, z in a header, or `nil` when one is missing.
    func resolve(_ header: [String]) -> (Int, Int, Int, Int)? {
        let normalized = header.map(Self.normalize)
        func find(_ configured: String?, _ names: [String]) -> Int? {
            if let configured {
                return header.firstIndex(of: configured) ?? normalized.firstIndex(of: Self.normalize(configured))
            }
            for name in names { if let i = normalized.firstIndex(of: name) { return i } }
            return nil
        }
        guard let t = find(time, Self.timeNames) ?? normalized.firstIndex(where: { $0.contains("time") }),
            let x = find(x, Self.axisNames("x")),
            let y = find(y, Self.axisNames("y")),
            let z = find(z, Self.axisNames("z")),
            Set([t, x, y, z]).count == 4
        else { return nil }
        return (t, x, y, z)
    }

    /// Names an axis column goes by, units removed: `x`, `acc_x`, phyphox's `Acceleration x (m/s^2)`, ….
    static func axisNames(_ a: String) -> [String] {
        [
            a, "acc_\(a)", "accel_\(a)", "accelerometer_\(a)", "a\(a)", "acc\(a)", "\(a)_axis", "\(a)-axis",
            "acceleration_\(a)",
            "linear_acceleration_\(a)", "accelerationincludinggravity_\(a)", "acceleration_including_gravity_\(a)",
        ]
    }

    /// The unit a column name carries in brackets (`Acceleration x (m/s^2)` → `m/s^2`), if any.
    static func unit(_ name: String) -> String? {
        for (open, close) in [("(", ")"), ("[", "]")] {
            if let a = name.range(of: open, options: .backwards),
                let b = name.range(of: close, range: a.upperBound..<name.endIndex)
            {
                let unit = name[a.upperBound..<b.lowerBound].trimmingCharacters(in: .whitespaces)
                if !unit.isEmpty { return unit }
            }
        }
        return nil
    }

    /// Lower case, quotes and units in brackets removed: `"X (g)"` → `x`.
    static func normalize(_ name: String) -> String {
        var s = name.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "\" "))
        for (open, close) in [("(", ")"), ("[", "]")] {
            while let a = s.range(of: open), let b = s.range(of: close, range: a.upperBound..<s.endIndex) {
                s.removeSubrange(a.lowerBound..<b.upperBound)
            }
        }
        return s.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: " ", with: "_")
    }

    var hint: String {
        time == nil && x == nil ? "; name them with columns: {time: …, x: …, y: …, z: …}" : ""
    }
}
