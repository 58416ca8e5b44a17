import DAQCore
import Testing

/// The control protocol's parser and line splitter, as the `daq` server and the fuzz target use
/// them: every command, every refusal, and no line past the limit held.
@Suite("control requests")
struct ControlRequestTests {
    @Test func everyCommandParses() {
        #expect(ControlRequest(line: "stats") == .stats)
        #expect(ControlRequest(line: "  pause ") == .pause)
        #expect(ControlRequest(line: "resume") == .resume)
        #expect(ControlRequest(line: "stop") == .stop)
        #expect(ControlRequest(line: "reload") == .reload)
        #expect(ControlRequest(line: "step walk/out and back") == .step("walk/out and back"))
        #expect(ControlRequest(line: "tap") == .tap(pattern: "*", maxRate: nil))
        #expect(ControlRequest(line: "tap acc* 1000000") == .tap(pattern: "acc*", maxRate: 1_000_000))
        #expect(ControlRequest(line: "   ") == nil)
    }

    @Test(arguments: ["9223372036854775807", "99999999999999999999999", "0", "-5", "1e400", "1000001", "x"])
    func aRateOutOfRangeIsRefusedNotClamped(_ rate: String) {
        guard case .refused(let why) = ControlRequest(line: "tap * \(rate)") else {
            Issue.record("tap * \(rate) was taken")
            return
        }
        #expect(why.hasPrefix("tap: MAX-RATE must be a whole number from 1 to 1000000"), "\(why)")
    }

    @Test func aPeersWordsAreEscapedInTheRefusal() {
        guard case .refused(let why) = ControlRequest(line: "\u{1B}[2Jwipe") else {
            Issue.record("taken")
            return
        }
        #expect(!why.contains("\u{1B}") && why.contains("\\x1B[2Jwipe"), "\(why)")
        #expect(ControlRequest(line: "step") == .refused("step needs a PATH"))
    }

    @Test func linesArriveInPiecesAndALongOneIsRefused() {
        var lines = LineBuffer(limit: 8)
        lines.append(Array("sta".utf8))
        #expect(lines.next() == .needMore)
        lines.append(Array("ts\npause\nres".utf8))
        #expect(lines.next() == .line("stats"))
        #expect(lines.next() == .line("pause"))
        #expect(lines.next() == .needMore)
        lines.append(Array("ume\n".utf8))
        #expect(lines.next() == .line("resume"))
        // Nine bytes with no newline: more than an unfinished line may hold.
        lines.append(Array("123456789".utf8))
        #expect(lines.next() == .tooLong)
    }
}
