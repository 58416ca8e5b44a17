// Fuzz targets over the readers of untrusted input: the gzip path (GzipDecoder, and LineReader
// over a gzip file), the CSV reader with its number parsing, the device-file readers (.cwa,
// .gt3x, GENEActiv .bin and CSV, ActiLife CSV), scanned codes (GS1 element strings, Digital
// Link, AIM identifiers, barcode.gs1's detection), JSON Lines values, YAML configs and the
// control protocol's lines as a peer on the run's socket sends them (`daq tap`'s glob and rate).
//
// Built for libFuzzer by scripts/fuzz-readers.sh; built normally it replays files given as
// arguments through the same entry.
import DAQCore
import Foundation

@testable import DAQBarcode
@testable import DAQMotion

/// Which reader one fuzzing process feeds.
enum FuzzTarget: String, CaseIterable {
    case gzip, csv, cwa, gt3x, geneactiv, gs1, json, yaml, control
}

/// A fixed "today" for GS1 dates, so a finding replays the same way on another day.
private let fuzzToday = Date(timeIntervalSince1970: 1_763_800_000)

/// One input to `target`. Errors are the expected answer to most inputs; only a crash, a
/// sanitizer report, a leak or a hang is a finding.
func fuzzOne(_ target: FuzzTarget, _ bytes: UnsafeRawBufferPointer) {
    switch target {
    case .gzip:
        decodeInChunks(bytes)
        guard let path = fuzzFile(bytes, name: "input.gz") else { return }
        if let reader = try? LineReader(path: path) {
            while (try? reader.nextLine { line in _ = FastDouble.parse(line) }) == .line {}
        }
    case .csv:
        _ = FastDouble.parse(bytes.assumingMemoryBound(to: UInt8.self))
        _ = NonFinite.parse(bytes.assumingMemoryBound(to: UInt8.self))
        guard let path = fuzzFile(bytes, name: "input.csv") else { return }
        let options = CSVRecordingReader.Options(
            path: path, delimiter: nil, skipLines: nil, columns: ColumnMapping(), timeUnit: .auto, timeFormat: nil,
            timeZone: TimeZone(identifier: "UTC")!)
        drain(try? CSVRecordingReader(options: options))
        drain(try? JSONRecordingReader(path: path, lines: true, columns: ColumnMapping(), sensorType: nil))
    case .cwa:
        guard let path = fuzzFile(bytes, name: "input.cwa") else { return }
        drain(try? CWAReader(path: path, timeZone: nil))
    case .gt3x:
        guard let path = fuzzFile(bytes, name: "input.gt3x") else { return }
        drain(try? GT3XReader(path: path, timeZone: nil))
    case .geneactiv:
        guard let path = fuzzFile(bytes, name: "input.bin") else { return }
        drain(try? GENEActivReader(path: path, timeZone: nil))
        drain(try? GENEActivCSVReader(path: path, timeZone: nil))
        drain(try? ActiLifeCSVReader(path: path, timeZone: nil))
    case .gs1:
        let raw = Array(bytes)
        let text = String(decoding: raw, as: UTF8.self)
        _ = SymbologyIdentifier.identify(raw)
        _ = ElementStringParser.parse(text, today: fuzzToday).fields()
        _ = DigitalLink.parse(text, today: fuzzToday)
        for detect in GS1Detection.allCases {
            _ = GS1Reading(detect: detect).fields(text, symbology: nil, today: fuzzToday)
        }
    case .json:
        _ = try? JSONParser.parse(bytes)
        _ = try? JSONParser.parse(bytes, allowNonFinite: true)
    case .yaml:
        // The loader as `daq validate` runs it: compose, alias budget, substitution, validation.
        let text = String(decoding: bytes, as: UTF8.self)
        _ = try? YAMLFile.compose(text: text, file: "fuzz.yaml")
        if let registry = try? PluginRegistry() {
            _ = try? PipelineLoader(registry: registry, environment: ["A": "1"], overrides: ["name=x"]).load(
                text: text, file: "fuzz.yaml")
        }
    case .control:
        serveLines(bytes)
    }
}

/// Feeds the control server's line splitter in chunks whose sizes come from the input, and
/// parses each line as the server does, matching a tap's glob against component names as it
/// does: a peer's bytes must never trap, hang or grow memory past the line limit.
private func serveLines(_ bytes: UnsafeRawBufferPointer) {
    var lines = LineBuffer(limit: ControlRequest.lineLimit)
    let step = bytes.isEmpty ? 1 : Int(bytes[0] % 31) + 1
    var at = 0
    while at < bytes.count {
        let end = min(at + step, bytes.count)
        lines.append(UnsafeRawBufferPointer(rebasing: bytes[at..<end]))
        at = end
        reading: while true {
            switch lines.next() {
            case .line(let line):
                if case .tap(let pattern, let rate) = ControlRequest(line: line) {
                    precondition(rate.map(ControlRequest.tapRates.contains) ?? true, "a rate out of range was taken")
                    for name in ["acc", "acc.x", "log", "*", ""] { _ = fnmatch(pattern, name, 0) }
                }
            case .needMore: break reading
            case .tooLong: return
            }
        }
    }
}

/// Feeds the gzip decoder in chunks whose sizes come from the input itself, into a small
/// output buffer, so headers, trailers and deflate blocks split at every place.
private func decodeInChunks(_ bytes: UnsafeRawBufferPointer) {
    let decoder = GzipDecoder()
    var output = [UInt8](repeating: 0, count: 61)
    var at = 0
    let step = bytes.isEmpty ? 1 : Int(bytes[bytes.count - 1] % 17) + 1
    do {
        while at < bytes.count {
            let end = min(at + step, bytes.count)
            var chunk = UnsafeRawBufferPointer(rebasing: bytes[at..<end])
            while true {
                let (used, made) = try output.withUnsafeMutableBytes { try decoder.decode(chunk, into: $0) }
                chunk = UnsafeRawBufferPointer(rebasing: chunk[used...])
                if used == 0 && made == 0 { break }
            }
            // Whatever the decoder does not take now, it never will: move on.
            at = end
        }
        try decoder.finish()
    } catch {}
}

/// Reads every row a reader gives, skipping bad rows as `on_bad_row: skip` does.
private func drain(_ reader: (any RecordingReader)?) {
    guard let reader else { return }
    while true {
        var rows = RowBuffer(capacity: 256)
        do {
            if try !reader.read(into: &rows, limit: 256) { return }
        } catch is BadRow {
            continue
        } catch {
            return
        }
        _ = reader.info
    }
}

/// The input as a file in this process's own directory.
private func fuzzFile(_ bytes: UnsafeRawBufferPointer, name: String) -> String? {
    let path = fuzzDirectory + "/" + name
    return FileManager.default.createFile(atPath: path, contents: Data(bytes)) ? path : nil
}

private let fuzzDirectory: String = {
    let dir = NSTemporaryDirectory() + "readers-fuzz-\(getpid())"
    try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    return dir
}()
