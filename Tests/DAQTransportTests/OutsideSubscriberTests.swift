import DAQCore
import DAQTesting
import Foundation
import Testing

/// What the `mqtt` sink publishes, read by a client and a JSON reader others wrote: paho-mqtt
/// subscribes at a real Mosquitto on loopback and Python's `json` reads every payload
/// (`Tests/Fixtures/mqtt/subscribe.py`). DAQKit's own `mqtt` source is not involved.
@Suite("mqtt sink read by paho", .serialized, .timeLimit(.minutes(20)))
struct OutsideSubscriberTests {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/mqtt/subscribe.py").path

    /// The samples published, one JSON Lines record each: every JSON type, and text that needs escaping.
    static let records = [
        #"{"timestamp": 1.5, "id": "a", "n": 3, "x": 3.0, "s": "plain", "ok": true, "none": null}"#,
        #"{"timestamp": 2.25, "id": "b", "n": -7, "x": 0.1, "s": "é \"quoted\"\n\ttab", "ok": false, "none": null}"#,
        #"{"timestamp": 3, "id": "c", "n": 9007199254740993, "x": -1e-300, "s": "", "ok": true, "none": null}"#,
    ]

    /// Each field as Python's json reads it: its type's name and its value written back as JSON.
    static let expected: [[String: [String]]] = [
        [
            "id": ["str", #""a""#], "n": ["int", "3"], "x": ["float", "3.0"], "s": ["str", #""plain""#],
            "ok": ["bool", "true"], "none": ["NoneType", "null"],
        ],
        [
            "id": ["str", #""b""#], "n": ["int", "-7"], "x": ["float", "0.1"],
            "s": ["str", #""\u00e9 \"quoted\"\n\ttab""#], "ok": ["bool", "false"], "none": ["NoneType", "null"],
        ],
        [
            "id": ["str", #""c""#], "n": ["int", "9007199254740993"], "x": ["float", "-1e-300"], "s": ["str", #""""#],
            "ok": ["bool", "true"], "none": ["NoneType", "null"],
        ],
    ]

    @Test func theSinksPayloadsAreTheSamplesAsPahoAndPythonReadThem() throws {
        let broker = try Mosquitto()
        try broker.start()
        let subscriber = try ServiceProcess.start(
            "/usr/bin/env", ["python3", Self.script, "127.0.0.1", "\(broker.port)", "t/#", "\(Self.records.count)"])
        try subscriber.waitForLine(timeout: 60) { $0 == "subscribed" }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("daq-paho-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let input = dir.appendingPathComponent("in.jsonl").path
        try (Self.records.joined(separator: "\n") + "\n").write(toFile: input, atomically: true, encoding: .utf8)
        let tx = try LiveRun(
            """
            name: paho
            clock: virtual
            sources: {rec: {type: file, path: "\(input)"}}
            sinks:
              pub: {type: mqtt, inputs: [rec], url: "\(broker.url)", topic: "t/{id}", qos: 1}
            """)
        let (result, _) = tx.finish()
        #expect(result.state == .finished, "\(result.failure ?? "")")
        #expect(tx.stats("pub", in: result)?.delivered == Self.records.count)

        #expect(try subscriber.waitForExit(timeout: 120) == 0, "\(subscriber.errorOutput)")
        var seen: [(topic: String, fields: [String: [String]])] = []
        while let line = try? subscriber.waitForLine(timeout: 1, { $0.hasPrefix("{") }) {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let fields = try #require(object["fields"] as? [String: [String]])
            guard fields["kind"] == nil else { continue }
            #expect(object["qos"] as? Int == 1)
            seen.append((object["topic"] as? String ?? "", fields))
        }
        try #require(seen.count == Self.records.count, "\(seen)")
        for (i, (topic, fields)) in seen.sorted(by: { $0.topic < $1.topic }).enumerated() {
            #expect(topic == "t/\(["a", "b", "c"][i])")
            for (key, value) in Self.expected[i] { #expect(fields[key] == value, "\(topic) \(key)") }
            #expect(fields["timestamp"]?.first == "float", "\(topic) timestamp")
            #expect(fields["_msg"]?.first == "str", "\(topic): a message id")
        }
    }
}
