import DAQCore
import DAQMotion
import DAQTesting
import Foundation
import Testing

/// GENEActiv `.bin` read by `motion.replay` and by others: `actfast` (Rust, PyPI; installed by
/// scripts/test.sh) on files from the DAQTesting writer, and a page built by hand from the
/// documented layout, with values worked out here.
@Suite(.timeLimit(.minutes(20))) struct GENEActivCrossCheckTests {
    /// Runs actfast on `path` and returns its high-frequency table as JSON: times (ns), x, y, z,
    /// light, button; and its per-page temperatures.
    func actfast(_ path: String) throws -> Fields {
        let out = tempDirectory() + "/actfast.json"
        let script = """
            import actfast, json, sys
            d = actfast.read(sys.argv[1])
            hf = d["timeseries"]["high_frequency"]
            lf = d["timeseries"]["low_frequency"]
            a = hf["acceleration"]
            json.dump({
                "time": [int(t) for t in hf["datetime"]],
                "x": a[:, 0].astype(float).tolist(), "y": a[:, 1].astype(float).tolist(), "z": a[:, 2].astype(float).tolist(),
                "light": hf["light"].astype(float).tolist(), "button": [bool(b) for b in hf["button_state"]],
                "temperature": lf["temperature"].astype(float).tolist(),
            }, open(sys.argv[2], "w"))
            """
        let r = try Process.runToEnd("python3", ["-c", script, path, out], timeout: 600)
        try #require(r.status == 0, "actfast failed (scripts/test.sh installs it): \(r.errors)")
        guard case .object(let o) = try JSONParser.parse([UInt8](try Data(contentsOf: URL(fileURLWithPath: out))))
        else {
            throw CocoaError(.fileReadCorruptFile)
        }
        return o
    }

    func doubles(_ v: Value?) -> [Double] {
        guard case .array(let a)? = v else { return [] }
        return a.map { $0.doubleValue ?? .nan }
    }

    /// Values agree to 1e-6 g and times to 1 ms. By design, actfast gives the device's wall clock
    /// (it ignores the header's `Time Zone`), DAQKit gives UTC: the test adds the offset back.
    /// actfast computes in 32-bit floats, so light (up to 2728 lux) is compared to 1e-3 lux.
    @Test(arguments: [(100.0, "GMT +01:00", 3600), (85.7, "GMT -05:00", -18_000)])
    func agreesWithActfast(frequency: Double, zone: String, offset: Int) throws {
        var w = GENEActivWriter()
        w.frequency = frequency
        w.timeZone = zone
        w.calibration.xGain = 24949
        w.calibration.xOffset = -813
        w.calibration.volts = 60
        w.calibration.lux = 988
        let path = tempDirectory() + "/cross.bin"
        try w.write(to: path, pages: 40, sample: variedSample)
        let (samples, _) = try replayAll(path)
        let theirs = try actfast(path)
        let times = doubles(theirs["time"])
        try #require(times.count == samples.count && samples.count == 12_000)
        let (x, y, z, light) = (
            doubles(theirs["x"]), doubles(theirs["y"]), doubles(theirs["z"]), doubles(theirs["light"])
        )
        var worst = (value: 0.0, time: 0.0)
        for (i, s) in samples.enumerated() {
            worst.value = max(
                worst.value, abs(s.number("x") - x[i]), abs(s.number("y") - y[i]), abs(s.number("z") - z[i]))
            worst.time = max(worst.time, abs(s.timestamp + Double(offset) - times[i] / 1e9))
            #expect(abs(s.number("light") - light[i]) < 1e-3, "light of sample \(i)")
        }
        #expect(worst.value < 1e-6, "largest difference in g: \(worst.value)")
        #expect(worst.time < 0.001, "largest difference in time: \(worst.time) s")
        guard case .array(let buttons)? = theirs["button"] else {
            Issue.record("no buttons")
            return
        }
        #expect(buttons.map { $0 == .bool(true) ? 1.0 : 0.0 } == samples.map { $0.number("button") })
        let temperatures = doubles(theirs["temperature"])
        #expect(temperatures.count == 40)
        for (page, t) in temperatures.enumerated() {
            #expect(abs(samples[page * 300].number("temperature") - t) < 1e-4)
        }
    }

    /// A file typed from the layout, not made by the writer: two sample patterns whose values are
    /// worked out by hand, no `Time Zone` line, CRLF line ends.
    @Test func aPageBuiltByHandFromTheLayout() throws {
        // x = 0x7FF = 2047, y = 0x800 = −2048, z = 0x001 = 1; then 0x00E = 0000000011|1|0: light 3, button on.
        let a = "7FF80000100E"
        // x = 0, y = 0xFFF = −1, z = 0x800 = −2048; then 0xFFF: light 1023, button on, reserved set.
        let b = "000FFF800FFF"
        let hex = String(repeating: a + b, count: 150)
        var lines = [
            "Device Identity", "Device Unique Serial Code:000042", "Device Type:GENEActiv", "Device Model:1.1", "",
        ]
        lines += ["Configuration Info", "Measurement Frequency:10 Hz", ""]
        lines += [
            "Calibration Data", "x gain:25600", "x offset:100", "y gain:25600", "y offset:0", "z gain:25600",
            "z offset:-100",
        ]
        lines += ["Volts:300", "Lux:800", "", "Memory Status", "Number of Pages:1", "", ""]
        lines += [
            "Recorded Data", "Device Unique Serial Code:000042", "Sequence Number:0",
            "Page Time:2020-02-29 23:59:59:500",
        ]
        lines += [
            "Unassigned:", "Temperature:25.5", "Battery voltage:4.0", "Device Status:Recording",
            "Measurement Frequency:10.0", hex,
        ]
        let path = recording("hand.bin", lines.joined(separator: "\r\n") + "\r\n")
        let (samples, events) = try replayAll(path)
        try #require(samples.count == 300)
        #expect(samples[0].number("x") == (204_700 - 100) / 25600.0)  // 7.99218750
        #expect(samples[0].number("y") == -8)
        #expect(samples[0].number("z") == (100 + 100) / 25600.0)
        #expect(samples[0].number("light") == 8)  // 3 × 800 / 300
        #expect(samples[0].number("button") == 1)
        #expect(samples[1].number("x") == -100 / 25600.0)
        #expect(samples[1].number("y") == -100 / 25600.0)
        #expect(samples[1].number("z") == (-204_800 + 100) / 25600.0)
        #expect(close(samples[1].number("light"), 1023 * 800 / 300.0))
        #expect(samples[1].number("temperature") == 25.5)
        // 2020-02-29 23:59:59.5 UTC (no zone in the header) is 1583020799.5 s; 10 Hz from there.
        #expect(samples[0].timestamp == 1_583_020_799.5)
        #expect(close(samples[299].timestamp, 1_583_020_799.5 + 29.9, 1e-9))
        #expect(
            events.notices.contains(
                "the header names no time zone: page times are read as UTC; set time_zone to say where the device was"))
    }
}
