import DAQBLE
import DAQCore
import Yams

extension TestFileParser {
    static let feedKeys = ["text", "lines", "hex", "samples", "file", "as", "interval", "publish"]

    /// `input: {COMPONENT: {text | lines | hex | samples, …}}`.
    mutating func feeds(_ node: Node, _ path: String, spec: PipelineSpec) -> [Feed] {
        var out: [Feed] = []
        for p in reader.mapping(node, path, allowed: nil) ?? [] {
            let key = "\(path).\(p.key)"
            guard let target = component(p.key, p.keyNode, key, spec: spec),
                let pairs = reader.mapping(p.value, key, allowed: Self.feedKeys)
            else { continue }
            let given = pairs.filter { ["text", "lines", "hex", "samples"].contains($0.key) }
            guard given.count == 1, let content = given.first else {
                reader.error(
                    given.count > 1 ? given[1].keyNode : p.value, key,
                    "give exactly one of text, lines, hex (a source's raw input) or samples")
                continue
            }
            let readsFile = target.plugin.configKeys.contains { $0.name == "path" }
            if content.key != "samples" && !(target.kind == .source && readsFile) {
                let what =
                    target.kind == .source
                    ? "source of type \(target.plugin.typeName) reads no file" : "is a \(target.kind.rawValue)"
                reader.error(
                    content.keyNode, "\(key).\(content.key)", "'\(target.name)' \(what); feed it samples instead")
                continue
            }
            var fileName: String?
            var streamName: String?
            var interval = 0.1
            var topic: String?
            for o in pairs {
                switch o.key {
                case "publish":
                    guard target.kind == .source && target.plugin.typeName == "mqtt" && content.key == "samples" else {
                        reader.error(
                            o.keyNode, "\(key).publish",
                            "'publish' sends samples to the broker of an mqtt source; "
                                + "'\(target.name)' is a \(target.plugin.typeName) \(target.kind.rawValue)"
                                + (content.key == "samples" ? "" : " and the feed gives no samples"))
                        continue
                    }
                    topic = reader.string(o.value, "\(key).publish")
                    if let t = topic, t.isEmpty || t.contains("+") || t.contains("#") {
                        reader.error(o.value, "\(key).publish", "expected a topic name without wildcards, found '\(t)'")
                        topic = nil
                    }
                case "file": fileName = reader.string(o.value, "\(key).file")
                case "as":
                    if target.kind == .source {
                        reader.error(o.keyNode, "\(key).as", "fed samples take a source's own name")
                    }
                    streamName = reader.string(o.value, "\(key).as")
                case "interval": interval = reader.number(o.value, "\(key).interval") ?? interval
                default: break
                }
            }
            let path = "\(key).\(content.key)"
            let feedContent: Feed.Content?
            switch content.key {
            case "text": feedContent = reader.string(content.value, path).map { .raw(text: $0, fileName: fileName) }
            case "lines":
                feedContent = reader.strings(content.value, path).map { lines in
                    .raw(text: lines.map(\.0).joined(separator: "\n") + "\n", fileName: fileName)
                }
            case "hex": feedContent = capture(content.value, path).map { .capture($0) }
            default: feedContent = samples(content.value, path, interval: interval).map { .samples($0) }
            }
            if let feedContent {
                out.append(
                    Feed(
                        component: target.name, place: reader.place(p.keyNode), content: feedContent,
                        streamName: streamName, publishTopic: topic))
            }
        }
        return out
    }

    /// `hex:` lines `SECONDS HEX…`: one HCI event each (`3E …` for LE advertising reports),
    /// SECONDS after the capture's start.
    private mutating func capture(_ node: Node, _ path: String) -> [(time: Double, bytes: [UInt8])]? {
        guard let lines = reader.strings(node, path) else { return nil }
        var out: [(Double, [UInt8])] = []
        for (i, (line, lineNode)) in lines.enumerated() {
            let parts = line.split(separator: " ", maxSplits: 1)
            guard parts.count == 2, let time = Double(parts[0]), time >= 0 else {
                reader.error(lineNode, "\(path)[\(i)]", "expected 'SECONDS HEX', e.g. '0.5 3E 2B 02 01 …'")
                continue
            }
            guard let bytes = BTSnoopWriter.bytes(hex: String(parts[1])), !bytes.isEmpty else {
                reader.error(lineNode, "\(path)[\(i)]", "'\(parts[1])' is not hex bytes")
                continue
            }
            out.append((Self.captureStart + time, bytes))
        }
        return out
    }

    /// Seconds since 1970 at which a `hex:` capture starts: that of the shipped capture.
    static let captureStart = 1_763_800_000.0

    /// `samples:` mappings; sample i without `uptime` or `timestamp` is at i × `interval` seconds.
    private mutating func samples(_ node: Node, _ path: String, interval: Double) -> [Fields]? {
        guard case .sequence(let seq) = node, !seq.isEmpty else {
            reader.error(node, path, "expected a non-empty list of samples (mappings of field: value)")
            return nil
        }
        var out: [Fields] = []
        for (i, s) in seq.enumerated() {
            guard let pairs = reader.mapping(s, "\(path)[\(i)]", allowed: nil) else { continue }
            var fields = Fields()
            for p in pairs { fields[p.key] = Value(yaml: p.value) }
            if fields["uptime"] == nil && fields["timestamp"] == nil {
                fields["uptime"] = .double(Double(i) * interval)
            }
            out.append(fields)
        }
        return out
    }
}
