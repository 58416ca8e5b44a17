import DAQCore
import DAQTesting
import Foundation
import Testing

@testable import DAQBarcode

#if canImport(Glibc)
    import Glibc
#endif

/// `input_event` records as the kernel writes them on 64-bit Linux.
enum Keys {
    static func event(_ type: UInt16, _ code: UInt16, _ value: Int32, sec: Int64 = 1_700_000_000, usec: Int64 = 0)
        -> [UInt8]
    {
        var r: [UInt8] = []
        withUnsafeBytes(of: sec.littleEndian) { r += $0 }
        withUnsafeBytes(of: usec.littleEndian) { r += $0 }
        withUnsafeBytes(of: type.littleEndian) { r += $0 }
        withUnsafeBytes(of: code.littleEndian) { r += $0 }
        withUnsafeBytes(of: value.littleEndian) { r += $0 }
        return r
    }

    /// Press and release with the scan and sync records a keyboard sends around each key.
    static func tap(_ code: UInt16) -> [UInt8] {
        event(4, 4, Int32(code)) + event(1, code, 1) + event(0, 0, 0) + event(1, code, 0) + event(0, 0, 0)
    }

    static func shifted(_ code: UInt16) -> [UInt8] { event(1, 42, 1) + tap(code) + event(1, 42, 0) }
    static func ctrl(_ code: UInt16) -> [UInt8] { event(1, 29, 1) + tap(code) + event(1, 29, 0) }
    static let enter: [UInt8] = tap(28)
}

@Suite(.timeLimit(.minutes(20))) struct InputEventDecoderTests {
    func decode(_ bytes: [UInt8], layout: KeyboardLayout = .us, split: Int? = nil) -> String {
        var d = InputEventDecoder(layout: layout)
        var out: [UInt8] = []
        let cut = split ?? bytes.count
        bytes[..<cut].withUnsafeBytes { d.decode($0, into: &out) }
        bytes[cut...].withUnsafeBytes { d.decode($0, into: &out) }
        return String(decoding: out, as: UTF8.self)
    }

    @Test func shiftMakesCapitalsAndSymbols() {
        // "Ab1!" then Enter: KEY_A 30, KEY_B 48, KEY_1 2.
        let bytes = Keys.shifted(30) + Keys.tap(48) + Keys.tap(2) + Keys.shifted(2) + Keys.enter
        #expect(decode(bytes) == "Ab1!\n")
    }

    @Test func recordsSplitAcrossReads() {
        let bytes = Keys.tap(2) + Keys.tap(3) + Keys.enter
        for split in [1, 23, 24, 25, 100, 131] { #expect(decode(bytes, split: split) == "12\n", "split at \(split)") }
    }

    @Test func ctrlBracketIsTheGroupSeparator() {
        let bytes = Keys.tap(11) + Keys.tap(2) + Keys.ctrl(27) + Keys.tap(3) + Keys.tap(11) + Keys.enter
        #expect(decode(bytes) == "01\u{1D}20\n")
    }

    @Test func germanLayoutSwapsYAndZ() {
        let bytes = Keys.tap(21) + Keys.tap(44) + Keys.shifted(12) + Keys.enter  // ß has no ASCII character: skipped
        #expect(decode(bytes, layout: .de) == "zy\n")
        #expect(decode(Keys.tap(21) + Keys.tap(44), layout: .us) == "yz")
    }

    @Test func keypadAndAutorepeat() {
        let bytes = Keys.tap(79) + Keys.event(1, 80, 1) + Keys.event(1, 80, 2) + Keys.event(1, 80, 0) + Keys.tap(96)
        #expect(decode(bytes) == "122\n")
    }
}

@Suite(.timeLimit(.minutes(20))) struct HIDScannerTests {
    @Test func codesFromEventBytesThroughTheSource() throws {
        let fifo = tempDirectory() + "/event3"
        try #require(mkfifo(fifo, 0o600) == 0)
        let writer = open(fifo, O_RDWR)  // held open so the source never sees end of input
        defer { close(writer) }
        let h = try SourceHarness(
            HIDScannerSource.self, config: "device: \"\(fifo)\"\ngrab: false", name: "wedge",
            clock: RunClock(mode: .realtime))
        defer { h.stop() }
        let typed = Keys.tap(5) + Keys.tap(11) + Keys.tap(11) + Keys.tap(7) + Keys.enter + Keys.shifted(30) + Keys.enter
        #expect(write(writer, typed, typed.count) == typed.count)
        let samples = try h.read(until: { $0.filter { $0.event == "scan.stop" }.count == 2 })
        #expect(sessionsAreWellFormed(samples))
        #expect(samples.filter { $0.event == "scan.data" }.map { $0["code"]?.stringValue } == ["4006", "A"])
    }

    @Test func grabOnANonEvdevFileSaysWhy() throws {
        let fifo = tempDirectory() + "/event4"
        try #require(mkfifo(fifo, 0o600) == 0)
        let writer = open(fifo, O_RDWR)
        defer { close(writer) }
        do {
            _ = try SourceHarness(HIDScannerSource.self, config: "device: \"\(fifo)\"")
            Issue.record("expected an error")
        } catch {
            #expect("\(error)".contains("cannot grab the device exclusively"))
        }
    }

    @Test func missingDevice() {
        let path = tempDirectory() + "/event9"
        #expect(throws: DeviceError.self) { try SourceHarness(HIDScannerSource.self, config: "device: \"\(path)\"") }
    }
}
