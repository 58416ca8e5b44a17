import DAQCore
import Testing

@testable import DAQBarcode

@Suite(.timeLimit(.minutes(20))) struct ScanSessionTests {
    func code(_ s: String) -> ScannedCode { ScannedCode(raw: Array(s.utf8)) }

    @Test func continuousCodesAreSessionsOfTheirOwn() {
        var s = ScanSessions(mode: .continuous, timeout: nil)
        var b = Batch()
        s.deliver(code("A"), at: 1, into: &b)
        s.deliver(code("B"), at: 2, into: &b)
        #expect(
            timeline(b.samples) == [
                "scan.start#1@1000", "scan.data#1@1000 A", "scan.stop#1@1000",
                "scan.start#2@2000", "scan.data#2@2000 B", "scan.stop#2@2000",
            ])
        #expect(b.samples.allSatisfy { $0.kind == .event })
    }

    @Test func triggeredSessionEndsWithTheFirstCode() {
        var s = ScanSessions(mode: .triggered, timeout: 5)
        var b = Batch()
        s.begin(at: 1, into: &b)
        s.deliver(code("A"), at: 1.5, into: &b)
        #expect(!s.deliver(code("B"), at: 1.6, into: &b), "no session open: ignored")
        #expect(s.ignored == 1)
        #expect(timeline(b.samples) == ["scan.start#1@1000", "scan.data#1@1500 A", "scan.stop#1@1500"])
    }

    @Test func timeoutIsStampedAtItsDeadlineEvenWhenNoticedLater() {
        var s = ScanSessions(mode: .triggered, timeout: 2)
        var b = Batch()
        s.begin(at: 1, into: &b)
        #expect(s.deadline == 3)
        s.expire(upTo: 2.9, into: &b)
        #expect(b.count == 1)
        s.begin(at: 10, into: &b)  // noticed only now
        #expect(
            timeline(b.samples) == [
                "scan.start#1@1000", "scan.timeout#1@3000", "scan.stop#1@3000", "scan.start#2@10000",
            ])
        #expect(b.samples[1]["timeout"] == .double(2))
    }

    @Test func cancelEndsTheSessionAndDoesNothingWithoutOne() {
        var s = ScanSessions(mode: .triggered, timeout: 5)
        var b = Batch()
        s.cancel(at: 0.5, into: &b)
        #expect(b.isEmpty)
        s.begin(at: 1, into: &b)
        s.cancel(at: 2, into: &b)
        s.cancel(at: 2.5, into: &b)
        #expect(timeline(b.samples) == ["scan.start#1@1000", "scan.cancel#1@2000", "scan.stop#1@2000"])
    }

    @Test func errorEndsTheSessionWithItsReason() {
        var s = ScanSessions(mode: .triggered, timeout: nil)
        var b = Batch()
        s.fail("nothing open", at: 0, into: &b)
        s.begin(at: 1, into: &b)
        s.fail("connection lost", at: 2, into: &b)
        #expect(
            timeline(b.samples) == ["scan.start#1@1000", "scan.error#1@2000 (connection lost)", "scan.stop#1@2000"])
    }

    @Test func aSecondTriggerWhileOpenDoesNothing() {
        var s = ScanSessions(mode: .triggered, timeout: 5)
        var b = Batch()
        #expect(s.begin(at: 1, into: &b))
        #expect(!s.begin(at: 2, into: &b))
        #expect(b.count == 1 && s.open?.start == 1)
    }

    @Test func timestampsAddTheTimeBase() {
        var s = ScanSessions(mode: .continuous, timeout: nil)
        s.timeBase = 1_700_000_000
        var b = Batch()
        s.deliver(code("A"), at: 0.25, into: &b)
        #expect(b.samples.map(\.timestamp) == [1_700_000_000.25, 1_700_000_000.25, 1_700_000_000.25])
    }
}

@Suite(.timeLimit(.minutes(20))) struct CodeAssemblerTests {
    func pieces(_ terminator: Terminator, _ chunks: [String], max: Int = 100) -> [CodeAssembler.Piece] {
        var a = CodeAssembler(terminator: terminator, maxLength: max)
        var out: [CodeAssembler.Piece] = []
        for c in chunks { Array(c.utf8).withUnsafeBytes { a.feed($0) { out.append($0) } } }
        return out
    }

    func codes(_ p: [CodeAssembler.Piece]) -> [String] {
        p.compactMap { if case .code(let b) = $0 { String(decoding: b, as: UTF8.self) } else { nil } }
    }

    @Test func anyTerminatorTakesCRLFAndCRLFWithoutEmptyCodes() {
        #expect(codes(pieces(.any, ["A\r\nB\rC\n\n", "D\r", "\n"])) == ["A", "B", "C", "D"])
    }

    @Test func codesSplitAcrossReads() {
        let p = pieces(.cr, ["12", "34", "\r56\r"])
        #expect(p == [.started, .code(Array("1234".utf8)), .started, .code(Array("56".utf8))])
    }

    @Test func crlfKeepsALoneCRAsData() {
        #expect(codes(pieces(.crlf, ["A\rB\r\n"])) == ["A\rB"])
    }

    @Test func configuredByte() {
        #expect(codes(pieces(.byte(0x03), ["AB\u{03}C\nD\u{03}"])) == ["AB", "C\nD"])
    }

    @Test func overlongCodeIsReportedAndDroppedUpToItsTerminator() {
        let p = pieces(.lf, ["12345678", "9\nOK\n"], max: 4)
        #expect(p == [.started, .overlong(5), .started, .code(Array("OK".utf8))])
    }

    @Test func resetDropsAPartialCode() {
        var a = CodeAssembler(terminator: .lf, maxLength: 10)
        Array("abc".utf8).withUnsafeBytes { a.feed($0) { _ in } }
        #expect(a.inCode)
        #expect(a.reset() == 3)
        #expect(!a.inCode)
    }
}
