import DAQCore

/// Which columns hold the time and the three axes: named in configuration, or found by name.
public struct ColumnMapping: Sendable, Decodable, Hashable {
    var time: String?
    var x: String?
    var y: String?
    var z: String?

    static let timeNames = ["timestamp", "time", "t", "ts", "uptime", "seconds", "time_s", "timestamp_ms", "time_ms"]

    /// The indices of time, x, y, z in a header, or `nil` when one is missing.
    func resolve(_ header: [String]) -> (Int, Int, Int, Int)? {
        let normalized = header.map(Self.normalize)
        func find(_ configured: String?, _ names: [String]) -> Int? {
            if let configured { return header.firstIndex(of: configured) ?? normalized.firstIndex(of: Self.normalize(configured)) }
            for name in names { if let i = normalized.firstIndex(of: name) { return i } }
            return nil
        }
        guard let t = find(time, Self.timeNames) ?? normalized.firstIndex(where: { $0.contains("time") }),
            let x = find(x, ["x", "acc_x", "accel_x", "accelerometer_x", "ax", "accx", "x_axis", "x-axis"]),
            let y = find(y, ["y", "acc_y", "accel_y", "accelerometer_y", "ay", "accy", "y_axis", "y-axis"]),
            let z = find(z, ["z", "acc_z", "accel_z", "accelerometer_z", "az", "accz", "z_axis", "z-axis"]),
            Set([t, x, y, z]).count == 4
        else { return nil }
        return (t, x, y, z)
    }

    /// Lower case, units in brackets removed: `X (g)` → `x`.
    static func normalize(_ name: String) -> String {
        var s = name.lowercased()
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

import Foundation
