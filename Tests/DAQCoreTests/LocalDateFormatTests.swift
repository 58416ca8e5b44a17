import DAQCore
import Foundation
import Testing

/// Dates on a zone's wall clock, written with integer arithmetic, against Foundation's
/// `DateFormatter` (an independent implementation over the system's zone database).
@Suite(.timeLimit(.minutes(20))) struct LocalDateFormatTests {
    @Test(arguments: [
        "Europe/Berlin", "America/New_York", "Australia/Lord_Howe", "Asia/Kolkata", "UTC", "-05:00", "+13:45",
    ])
    func agreesWithFoundationAcrossDaylightSavingAndCenturies(zoneName: String) throws {
        let zone = try #require(ISODate.zone(zoneName))
        var format = LocalDateFormat(zone: zone)
        var rng: UInt64 = 0x2545_F491_4F6C_DD1D
        var instants: [Double] = []
        // Every 20 minutes through 2024 (both transitions of every zone here), then random
        // instants from 1901 to 2099; a quarter millisecond in, so truncation and rounding agree.
        for k in 0..<(366 * 72) { instants.append(1_704_067_200 + Double(k) * 1200 + 0.123_25) }
        for _ in 0..<5000 {
            rng ^= rng << 13
            rng ^= rng >> 7
            rng ^= rng << 17
            let ms = Int64(rng % 6_311_390_400_000) - 2_177_452_800_000
            instants.append((Double(ms) + 0.25) / 1000)
        }
        // ISODate.string's formatting, with one formatter rather than one per instant.
        let foundation = DateFormatter()
        foundation.locale = Locale(identifier: "en_US_POSIX")
        foundation.timeZone = zone
        foundation.dateFormat = "yyyy-MM-dd'T'HH:mm:ss.SSSxxx"
        #expect(foundation.string(from: Date(timeIntervalSince1970: 1e9)) == ISODate.string(1e9, timeZone: zone))
        var mismatches = 0
        for t in instants {
            let expected = foundation.string(from: Date(timeIntervalSince1970: t))
            if format.string(t) != expected {
                mismatches += 1
                if mismatches <= 5 {
                    Issue.record("at \(t) in \(zoneName): \(format.string(t)), Foundation \(expected)")
                }
            }
        }
        #expect(mismatches == 0)
    }

    @Test func namesTheZonesRecordingsGive() {
        #expect(ISODate.zone("+01:00")?.secondsFromGMT() == 3600)
        #expect(ISODate.zone("-05:30")?.secondsFromGMT() == -19800)
        #expect(ISODate.zone("UTC")?.secondsFromGMT() == 0)
        #expect(ISODate.zone("Europe/Paris")?.identifier == "Europe/Paris")
        #expect(ISODate.zone("somewhere") == nil)
    }
}
