import Foundation

/// How LSL's clock (`lsl_local_clock()`, seconds since some boot-time origin) maps to seconds
/// since 1970: `wall − lsl_local_clock()` measured once, when the plugin starts.
///
/// Once, so a sample's time never jumps when the wall clock is stepped (NTP) during a run; the
/// mapping is kept in the run's manifest so a reader can undo it.
struct LSLClockMapping: Sendable, Equatable {
    /// Seconds since 1970 at LSL time 0.
    let wallMinusLSL: Double

    /// Measures the mapping now.
    init(api: LSLFunctions) {
        // Read LSL's clock between two wall readings and take their middle: the error is half
        // the time the reads took, microseconds.
        let before = Date().timeIntervalSince1970
        let lsl = api.localClock()
        let after = Date().timeIntervalSince1970
        wallMinusLSL = (before + after) / 2 - lsl
    }

    init(wallMinusLSL: Double) {
        self.wallMinusLSL = wallMinusLSL
    }

    /// Seconds since 1970 of LSL time `t` (on this machine's LSL clock).
    @inline(__always)
    func wall(_ t: Double) -> Double { t + wallMinusLSL }

    /// LSL time of wall time `w` (seconds since 1970).
    @inline(__always)
    func lsl(_ w: Double) -> Double { w - wallMinusLSL }

    /// What a descriptor's metadata says about timestamps.
    var explanation: String {
        "LSL time + time correction, mapped to seconds since 1970 by wall - lsl_local_clock() = \(wallMinusLSL) s, measured once at start"
    }
}
