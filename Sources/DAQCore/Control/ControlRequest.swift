/// One line of a run's control protocol (what `daq top`, `daq tap` and `daq control` send),
/// parsed: what the run is asked to do, or why the line is refused.
///
/// It lives in the engine, away from any socket, so a program that embeds a run can serve the
/// same protocol and the fuzz target reaches the very parser the `daq` server uses. Every number
/// in a line is checked here, before anything does arithmetic with it: a peer's rate of
/// 9223372036854775807 once trapped the run it watched.
public enum ControlRequest: Equatable, Sendable {
    /// One line of every stage's counters.
    case stats
    /// The samples leaving components whose names match `pattern` (an `fnmatch` glob), at most
    /// `maxRate` a second (`nil`: the default).
    case tap(pattern: String, maxRate: Int?)
    case pause, resume, stop, reload
    /// Makes the path the run's step from now on.
    case step(String)
    /// Not a command the run takes; the text says why, with the peer's words escaped.
    case refused(String)

    /// The rates a tap may ask for: a sampled view for people and scripts, never more than a
    /// million samples a second, and never a number whose arithmetic could overflow.
    public static let tapRates = 1...1_000_000
    /// The longest line taken; a longer one ends the connection.
    public static let lineLimit = 4096
    /// What the tap takes when a line names no rate.
    public static let defaultTapRate = 1000

    /// The request `line` (without its newline) makes; `nil` for a blank line, which asks nothing.
    public init?(line: String) {
        let words = line.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        guard let verb = words.first else { return nil }
        switch verb {
        case "stats": self = .stats
        case "tap":
            var rate: Int?
            if words.count > 2 {
                rate = Int(words[2]).flatMap { Self.tapRates.contains($0) ? $0 : nil }
                guard rate != nil else {
                    let r = Self.tapRates
                    self = .refused(
                        "tap: MAX-RATE must be a whole number from \(r.lowerBound) to \(r.upperBound); found '\(PrintableText.escaped(words[2]))'"
                    )
                    return
                }
            }
            self = .tap(pattern: words.count > 1 ? words[1] : "*", maxRate: rate)
        case "pause": self = .pause
        case "resume": self = .resume
        case "stop": self = .stop
        case "reload": self = .reload
        case "step":
            let path = words.dropFirst().joined(separator: " ")
            self = path.isEmpty ? .refused("step needs a PATH") : .step(path)
        default:
            self = .refused(
                "unknown command '\(PrintableText.escaped(verb))'; expected stats, tap, pause, resume, stop, step or reload"
            )
        }
    }
}
