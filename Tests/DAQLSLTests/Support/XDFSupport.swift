import DAQCore
import DAQLSL
import DAQTesting
import Foundation
import Testing

/// XDF files written by `Tests/Fixtures/xdf/write_xdf.py` (from the specification, not by
/// daq), read back by pyxdf 1.17.5 and by `xdf.replay`.
enum XDFFixture {
    static let writer = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/xdf/write_xdf.py").path

    /// Writes a file with the writer's `options` into a fresh directory.
    /// - Returns: its path, and what the writer printed (its chunk count, its last Samples chunk).
    static func write(_ name: String = "rec.xdf", _ options: [String] = []) throws -> (path: String, said: String) {
        let path = xdfTemporaryDirectory() + "/" + name
        let r = try Process.runToEnd("python3", [writer, path] + options, timeout: 120)
        try #require(r.status == 0, "write_xdf.py failed: \(r.errors.suffix(2000))")
        return (path, r.output)
    }

    /// pyxdf's view of a file: each stream's name, labels, units, rate, time stamps and values.
    struct PyStream {
        var name: String
        var format: String
        var rate: Double
        var labels: [String]
        var units: [String]
        var stamps: [Double]
        var values: [[Value]]
    }

    static let pyxdfScript = """
        import json, sys, pyxdf
        streams, header = pyxdf.load_xdf(sys.argv[1], synchronize_clocks=True, handle_clock_resets=True,
                                         dejitter_timestamps=False)
        out = []
        for s in streams:
            info = s['info']
            fmt = info['channel_format'][0]
            desc = info['desc'][0] if info['desc'] and isinstance(info['desc'][0], dict) else {}
            chans = (desc.get('channels') or [{}])[0] or {}
            chans = chans.get('channel', []) if isinstance(chans, dict) else []
            def text(c, key):
                v = c.get(key, [None])[0]
                return v if isinstance(v, str) else ''
            if fmt == 'string':
                values = [list(row) for row in s['time_series']]
            elif fmt in ('float32', 'double64'):
                values = [[float(v) for v in row] for row in s['time_series']]
            else:
                values = [[int(v) for v in row] for row in s['time_series']]
            out.append({'name': info['name'][0], 'format': fmt, 'rate': float(info['nominal_srate'][0]),
                        'labels': [text(c, 'label') for c in chans], 'units': [text(c, 'unit') for c in chans],
                        'stamps': [float(t) for t in s['time_stamps']], 'values': values})
        print(json.dumps(out))
        """

    /// Loads `path` with pyxdf.
    static func pyxdf(_ path: String) throws -> [PyStream] {
        let r = try Process.runToEnd("python3", ["-c", pyxdfScript, path], timeout: 300)
        try #require(r.status == 0, "pyxdf failed: \(r.errors.suffix(2000))")
        guard case .array(let list) = try JSONParser.parse(Array(r.output.utf8)) else { return [] }
        return list.compactMap { item in
            guard case .object(let o) = item else { return nil }
            func strings(_ key: String) -> [String] {
                guard case .array(let a)? = o[key] else { return [] }
                return a.compactMap(\.stringValue)
            }
            guard case .array(let stamps)? = o["stamps"], case .array(let rows)? = o["values"] else { return nil }
            return PyStream(
                name: o["name"]?.stringValue ?? "", format: o["format"]?.stringValue ?? "",
                rate: o["rate"]?.doubleValue ?? 0, labels: strings("labels"), units: strings("units"),
                stamps: stamps.compactMap(\.doubleValue),
                values: rows.map { row in
                    if case .array(let v) = row { return v }
                    return []
                })
        }
    }

    /// Every sample `xdf.replay` gives for `path`, and its events, in batches of `batchSize`.
    static func replay(_ path: String, _ extra: String = "", batchSize: Int = 1024) throws -> (
        samples: [Sample], events: [PipelineEvent], descriptor: StreamDescriptor, summary: Fields?
    ) {
        let yaml = "path: \"\(path)\"\n" + extra
        let configuration = try PluginConfigLoader.decode(XDFReplaySource.Configuration.self, yaml: yaml)
        let context = PluginContext(componentName: "xdf", pipelineName: "test", baseDirectory: "", clock: .virtual)
        let source = try XDFReplaySource(configuration: configuration, context: context)
        let descriptor = try source.describe(context: context)
        let h = try SourceHarness(source, name: "xdf")
        let (samples, status) = try h.read(batchSize: batchSize)
        #expect(status == .finished)
        h.stop()
        return (samples, h.events, descriptor, source.recordingSummary)
    }
}

/// A fresh temporary directory.
func xdfTemporaryDirectory() -> String {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("daq-xdf-\(UUID().uuidString)").path
    try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}

extension [PipelineEvent] {
    /// Notices a stage reported, in order.
    var xdfNotices: [String] { compactMap { if case .notice(_, let m) = $0 { m } else { nil } } }
    /// Warnings a stage reported, in order.
    var xdfWarnings: [String] { compactMap { if case .warning(_, let m) = $0 { m } else { nil } } }
}
