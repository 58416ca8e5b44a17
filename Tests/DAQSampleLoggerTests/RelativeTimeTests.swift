import DAQCore
import DAQSampleLogger
import DAQTesting
import Foundation
import Testing

/// Relative times come out as the recording has them (2.15), not with the noise of subtracting
/// two epoch times (2.1500000953674316).
@Suite("Logger relative times", .timeLimit(.minutes(20)))
struct RelativeTimeTests {
    @Test func theDifferenceIsRoundedToWhatTheTimesCarry() {
        #expect(TimeDifference.between(1763800002.150, 1763800000.0) == 2.15)
        #expect(1763800002.150 - 1763800000.0 != 2.15)  // the noise this removes
        // A 30 Hz device clock in epoch seconds: 1/30 to the 1e-7 s an epoch double holds.
        #expect(TimeDifference.between(1_773_563_400 + 1.0 / 30, 1_773_563_400) == 0.0333333)
        // Exact differences are left alone: small times, an origin of 0, negative times.
        #expect(TimeDifference.between(0.1 + 0.2, 0) == 0.1 + 0.2)
        #expect(TimeDifference.between(12.345678901, 2) == 12.345678901 - 2)
        #expect(TimeDifference.between(1763800000.0, 1763800002.150) == -2.15)
    }

    @Test func theRoundedDifferenceStaysWithinTheTimesPrecision() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<10_000 {
            let origin = Double.random(in: 1e9...2e9, using: &generator)
            let time = origin + Double.random(in: 0...86_400, using: &generator)
            let raw = time - origin
            let rounded = TimeDifference.between(time, origin)
            #expect((rounded - raw).magnitude <= time.ulp / 2, "\(time) - \(origin): \(rounded) vs \(raw)")
        }
    }

    @Test(arguments: ["logger.jsonl", "logger.csv"])
    func loggedTimesOfAnEpochRecordingReadAsWritten(sink: String) throws {
        let dir = try runLogger(sink, source: "count: 40, rate: 20, base: 1763800000")
        let file = dir + (sink == "logger.csv" ? "/accel.csv" : "/accel.jsonl")
        let text = try String(contentsOfFile: file, encoding: .utf8)
        var times: [String] = []
        for line in text.split(separator: "\n").dropFirst() {
            let cells = line.split(separator: sink == "logger.csv" ? "," : "\n", omittingEmptySubsequences: false)
            if sink == "logger.csv" {
                times.append(String(cells[1]))
            } else if let range = line.range(of: #""timestamp":"#),
                let end = line[range.upperBound...].firstIndex(of: ",")
            {
                times.append(String(line[range.upperBound..<end]))
            }
        }
        // Every time is a multiple of 0.05 s written with at most two decimals.
        #expect(times.count >= 40, "\(text)")
        for time in times {
            #expect(time.split(separator: ".").last.map { $0.count <= 2 } ?? true, "\(time) in \(file)")
        }
        #expect(times.contains("0.15") && times.contains("1.95"), "\(times)")
    }
}
