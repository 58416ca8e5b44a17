import Testing

@testable import DAQCore

/// What `DAQError` is made from: errors that know a place keep it, any other keeps its text.
@Suite("DAQError", .timeLimit(.minutes(20)))
struct DAQErrorTests {
    @Test func aDAQErrorPassesThroughAndOnlyGainsAMissingComponent() {
        let thrown = DAQError(.fileFailed, "x.csv: gone", component: "reader", location: .init(file: "x.csv"))
        #expect(DAQError(thrown, component: "other") == thrown)
        var anonymous = thrown
        anonymous.component = nil
        #expect(DAQError(anonymous, component: "stage").component == "stage")
    }

    @Test func anyOtherErrorKeepsItsTextUnderTheCodeGiven() {
        struct Plain: Error, CustomStringConvertible { var description: String { "the meter said no" } }
        let error = DAQError(Plain(), component: "meter", code: .startFailed)
        #expect(error.code == .startFailed && error.message == "the meter said no" && error.location == nil)
        #expect("\(error)" == "the meter said no")
        #expect(error.failureLine == "meter: the meter said no")
        #expect(error.underlying is Plain)
    }

    @Test func aCutGzipIsBadInputAtItsCompressedByte() {
        let cut = CompressedInputError(
            path: "walk.csv.gz", gzip: GzipError(offset: 8192, kind: .truncated, message: "inside a member"),
            lastCompleteLine: 12, contentOffset: 300)
        let error = DAQError(cut, component: "in")
        #expect(error.code == .badInput)
        #expect(error.location == DAQError.Location(file: "walk.csv.gz", byteOffset: 8192))
        #expect(error.message == cut.description)
        #expect(error.underlying is CompressedInputError)
    }

    @Test func aConfigErrorIsPlacedAtItsFirstError() {
        let config = ConfigError([
            Diagnostic(file: "walk.yaml", line: 2, column: 1, severity: .warning, message: "unused"),
            Diagnostic(file: "walk.yaml", line: 14, column: 11, path: "sinks.log.inputs", message: "unknown component"),
        ])
        let error = DAQError(config, component: nil)
        #expect(error.code == .invalidConfiguration)
        #expect(error.location == DAQError.Location(file: "walk.yaml", line: 14, column: 11))
        #expect(error.message == config.description)
    }

    @Test func aConfigIssueNamesItsKey() {
        let issue = ConfigIssue(key: "window.size", "must be positive")
        #expect("\(issue)" == "window.size: must be positive")
        #expect(DAQError(issue, component: "w").code == .invalidConfiguration)
    }

    @Test func aStartErrorNamesTheStageAndKeepsItsLine() {
        let file = OutputFileError(path: "/x/out.jsonl", reason: "Permission denied")
        let start = PipelineStartError(component: "sinks.log", message: "\(file)", underlying: file)
        let error = start.daqError
        #expect(error.code == .fileFailed, "the file's code, not start_failed")
        #expect(error.component == "log")
        #expect(error.location == DAQError.Location(file: "/x/out.jsonl"))
        #expect(error.failureLine == start.description)
        let plain = PipelineStartError(component: "sources.gen", message: "no device").daqError
        #expect(plain.code == .startFailed && plain.component == "gen" && plain.failureLine == "sources.gen: no device")
    }

    @Test(arguments: [
        (DAQError.Location(file: "a.yaml", line: 3, column: 7), "a.yaml:3:7"),
        (DAQError.Location(file: "a.csv", line: 3), "a.csv:3"),
        (DAQError.Location(file: "a.cwa", byteOffset: 512), "a.cwa at byte 512"),
        (DAQError.Location(file: "a.log"), "a.log"),
    ])
    func locationsReadAsCompilersWriteThem(location: DAQError.Location, text: String) {
        #expect(location.description == text)
    }

    @Test(arguments: [
        (DAQError.Code.pluginFailed, "plugin_failed"), (.badInput, "bad_input"), (.fileFailed, "file_failed"),
        (.invalidConfiguration, "invalid_configuration"), (.startFailed, "start_failed"),
        (.reloadFailed, "reload_failed"), (.recordFailed, "record_failed"), (.cancelled, "cancelled"),
    ])
    func codesKeepTheirNames(code: DAQError.Code, name: String) {
        #expect(code.rawValue == name && "\(code)" == name)
    }
}
