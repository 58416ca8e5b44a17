import DAQCore

/// One decoded page of a GENEActiv `.bin` file: up to 300 samples, calibrated, with their
/// times. Its arrays are allocated once and reused for every page.
struct GENEActivPage {
    /// Hex characters of a page's data line: 300 samples of 12.
    static let hexLength = 3600
    static let samples = 300

    var times = [Double](repeating: 0, count: samples)
    var xs = [Double](repeating: 0, count: samples)
    var ys = [Double](repeating: 0, count: samples)
    var zs = [Double](repeating: 0, count: samples)
    var light = [Double](repeating: 0, count: samples)
    var button = [Double](repeating: 0, count: samples)
    var temperature = 0.0
    /// The line of the page's data, for messages and `RowBuffer.lines`.
    var line = 0
    var count = 0

    /// Calibration from the header: value = (raw × 100 − offset) / gain; lux = raw × lux / volts.
    struct Calibration {
        var gain: (Double, Double, Double)
        var offset: (Double, Double, Double)
        var luxPerCount: Double
    }

    /// ASCII → hex digit value (DAQCore's ``HexBytes/value(_:)``); 0xFF for anything else, so
    /// one OR over a sample's digits finds a bad one.
    private static let hexValues: [UInt8] = (0..<256).map { HexBytes.value(UInt8($0)) ?? 0xFF }

    /// Decodes a data line into the page, straight from its bytes.
    /// - Returns: `nil` on success, else the 1-based column of the first character that is not hex.
    mutating func decode(
        _ hex: UnsafeBufferPointer<UInt8>, start: Double, period: Double, calibration c: Calibration
    ) -> Int? {
        let n = hex.count / 12
        let failed: Int? = Self.hexValues.withUnsafeBufferPointer { table -> Int? in
            xs.withUnsafeMutableBufferPointer { xs in
                ys.withUnsafeMutableBufferPointer { ys in
                    zs.withUnsafeMutableBufferPointer { zs in
                        light.withUnsafeMutableBufferPointer { light in
                            button.withUnsafeMutableBufferPointer { button in
                                times.withUnsafeMutableBufferPointer { times in
                                    for i in 0..<n {
                                        var v: UInt64 = 0
                                        var bad: UInt8 = 0
                                        let base = i * 12
                                        for k in 0..<12 {
                                            let d = table[Int(hex[base + k])]
                                            bad |= d
                                            v = v << 4 | UInt64(d & 0x0F)
                                        }
                                        if bad & 0x80 != 0 {
                                            var k = 0
                                            while table[Int(hex[base + k])] != 0xFF { k += 1 }
                                            return base + k + 1
                                        }
                                        // 12-bit two's complement axes, 10-bit light, the button, a reserved bit.
                                        let x = ((Int(truncatingIfNeeded: v >> 36) & 0xFFF) ^ 0x800) - 0x800
                                        let y = ((Int(truncatingIfNeeded: v >> 24) & 0xFFF) ^ 0x800) - 0x800
                                        let z = ((Int(truncatingIfNeeded: v >> 12) & 0xFFF) ^ 0x800) - 0x800
                                        xs[i] = (Double(x) * 100 - c.offset.0) / c.gain.0
                                        ys[i] = (Double(y) * 100 - c.offset.1) / c.gain.1
                                        zs[i] = (Double(z) * 100 - c.offset.2) / c.gain.2
                                        light[i] = Double(Int(truncatingIfNeeded: v >> 2) & 0x3FF) * c.luxPerCount
                                        button[i] = Double(Int(truncatingIfNeeded: v >> 1) & 1)
                                        times[i] = start + Double(i) * period
                                    }
                                    return nil
                                }
                            }
                        }
                    }
                }
            }
        }
        count = failed == nil ? n : 0
        return failed
    }

    /// Appends samples `from..<to` to `rows`, temperature, light and button as its channels.
    func append(_ from: Int, _ to: Int, into rows: inout RowBuffer) {
        if rows.channels.isEmpty { rows.channels = [[], [], []] }
        rows.times.append(contentsOf: times[from..<to])
        rows.xs.append(contentsOf: xs[from..<to])
        rows.ys.append(contentsOf: ys[from..<to])
        rows.zs.append(contentsOf: zs[from..<to])
        rows.lines.append(contentsOf: repeatElement(line, count: to - from))
        rows.channels[0].append(contentsOf: repeatElement(temperature, count: to - from))
        rows.channels[1].append(contentsOf: light[from..<to])
        rows.channels[2].append(contentsOf: button[from..<to])
    }
}
