import DAQCore
import Testing

@testable import DAQCLI

/// Text from outside reaches log lines escaped: one line each, no escape sequence for the
/// terminal to act on, and everything else as it was.
@Suite struct TerminalSafeLogTests {
    @Test func aTopicWithAnEscapeSequenceIsPrintedEscaped() {
        let line = DAQLogHandler.text(
            level: .warning, message: "skipped a message on 'x/\u{1B}[2J' is not samples\nforged: line",
            metadata: ["component": "fleet\u{7}"])
        #expect(line == #"daq: warning: fleet\x07: skipped a message on 'x/\x1B[2J' is not samples\x0Aforged: line"#)
    }

    @Test func plainTextIsKeptAsItIs() {
        let text = "C:\\data\\walk.csv: 12 rows, ±6 g, café, tab\tok"
        #expect(PrintableText.line(text) == text)
        #expect(DAQLogHandler.text(level: .notice, message: text, metadata: [:]) == "daq: note: " + text)
    }

    @Test(arguments: [
        ("\u{1B}]0;owned\u{7}", #"\x1B]0;owned\x07"#), ("a\rb", #"a\x0Db"#), ("\u{9B}31m", #"\u{9b}31m"#),
        ("del\u{7F}", #"del\x7F"#),
    ])
    func controlCharactersAreEscaped(raw: String, shown: String) {
        #expect(PrintableText.line(raw) == shown)
    }
}
