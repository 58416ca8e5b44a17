import ArgumentParser
import DAQCore
import Foundation
import Logging

/// How `daq` writes its log lines (warnings, errors, notes) to standard error.
enum LogFormat: String, ExpressibleByArgument, CaseIterable, Sendable {
    /// `daq: warning: scanner: …`, for people.
    case text
    /// One JSON object per line (`time`, `level`, `component`, `message`), for log collectors.
    case json
}

/// `--log-level`: swift-log's levels under their own names, as an argument type of our own
/// rather than a retroactive conformance of swift-log's type to swift-argument-parser's protocol.
enum LogLevel: String, CaseIterable, ExpressibleByArgument {
    case trace, debug, info, notice, warning, error, critical

    /// The swift-log level of the same name.
    var level: Logger.Level { Logger.Level(rawValue: rawValue) ?? .notice }
}

/// A swift-log handler writing `daq`'s lines to standard error in either format.
///
/// One `write` per line, so lines from several threads never interleave mid-line, and never
/// run into the live status line (``StandardError``).
struct DAQLogHandler: LogHandler {
    var logLevel: Logger.Level
    var metadata: Logger.Metadata = [:]
    let format: LogFormat

    init(format: LogFormat, level: Logger.Level) {
        self.format = format
        self.logLevel = level
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        var all = metadata
        if let extra = event.metadata { all.merge(extra) { $1 } }
        let line: String
        switch format {
        case .text: line = Self.text(level: event.level, message: "\(event.message)", metadata: all)
        case .json: line = Self.json(level: event.level, message: "\(event.message)", metadata: all)
        }
        StandardError.line(line)
    }

    /// The words `daq` has always printed: `error`, `warning`, `note`.
    static func text(level: Logger.Level, message: String, metadata: Logger.Metadata) -> String {
        let word: String
        switch level {
        case .critical, .error: word = "error"
        case .warning: word = "warning"
        case .notice: word = "note"
        case .info: word = "info"
        case .debug, .trace: word = "debug"
        }
        // Messages carry text from outside (topics, payloads, a child's stderr): one line each,
        // with no escape sequence reaching the terminal.
        let component = metadata["component"].map { "\(PrintableText.line("\($0)")): " } ?? ""
        return "daq: \(word): \(component)\(PrintableText.line(message))"
    }

    static func json(level: Logger.Level, message: String, metadata: Logger.Metadata) -> String {
        // A formatter per line: log lines are rare, and a shared one is not safe across threads.
        let clock = ISO8601DateFormatter()
        clock.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        var fields: [String: String] = [
            "time": clock.string(from: Date()), "level": level.rawValue, "message": message,
        ]
        for (k, v) in metadata { fields[k] = "\(v)" }
        let data =
            (try? JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys, .withoutEscapingSlashes]))
            ?? Data()
        return String(decoding: data, as: UTF8.self)
    }
}
