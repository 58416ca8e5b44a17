import DAQCore
import DAQTransport
import Testing

/// Payloads, topics and the spool, without a broker.
@Suite("mqtt payloads, topics and spool", .timeLimit(.minutes(20)))
struct PayloadTests {
    static let sample = Sample(
        stream: "accel", timestamp: 1_795_000_000.125, uptime: 2.5, stepPath: "walk/out", kind: .event,
        fields: [
            "i": .int(-42), "d": .double(3.0), "tiny": .double(1e-300), "s": .string("a \"quoted\" é\n"),
            "b": .bool(true),
            "raw": .bytes([0, 1, 0xAB, 0xFF]), "list": .array([.int(1), .double(2.5), .null]),
            "obj": .object(["k": .string("v"), "n": .int(7)]),
        ])

    @Test func everyValueTypeRoundTrips() throws {
        var out: [UInt8] = []
        SamplePayload.append(
            Batch(stream: "accel", samples: [Self.sample]), row: 0, messageID: Array("edge@1:7".utf8), to: &out)
        let decoded = try SamplePayload.decode(out)
        #expect(decoded.count == 1)
        #expect(decoded[0].messageID == "edge@1:7")
        #expect(decoded[0].sample == Self.sample)
        #expect(decoded[0].sample.fields.keys == Self.sample.fields.keys, "field order is kept")
    }

    @Test func aBatchIsAnArrayOfSamples() throws {
        let payload = Array(#"[{"_msg":"a:1","timestamp":1,"x":1},{"_msg":"a:1","timestamp":2,"x":2.0}]"#.utf8)
        let decoded = try SamplePayload.decode(payload)
        #expect(decoded.map(\.sample.timestamp) == [1, 2])
        #expect(decoded.map { $0.sample["x"] } == [.int(1), .double(2)])
    }

    @Test(arguments: [
        ("not json", "payload is not JSON"), ("42", "expected a sample object"),
        ("[1]", "expected an array of sample objects"),
        (#"{"timestamp":"x"}"#, "timestamp must be a number"), (#"{"kind":"other"}"#, "kind must be"),
        (#"{"raw":"zz","_bytes":["raw"]}"#, "is listed in _bytes but is not hex"),
    ])
    func badPayloadsSayWhatIsWrong(text: String, message: String) {
        #expect {
            _ = try SamplePayload.decode(Array(text.utf8))
        } throws: { "\($0)".contains(message) }
    }

    @Test func topicTemplates() throws {
        let batch = Batch(
            stream: "accel",
            samples: [Sample(uptime: 0, fields: ["site": "north/east", "n": 3]), Sample(uptime: 1, kind: .marker)])
        let t = try TopicTemplate("daq/{pipeline}/{stream}/{site}/{n}/{kind}")
        #expect(t.perSample)
        #expect(t.render(batch, row: 0, pipeline: "edge", component: "pub") == "daq/edge/accel/north_east/3/data")
        #expect(t.render(batch, row: 1, pipeline: "edge", component: "pub") == "daq/edge/accel/_/_/marker")
        #expect(try !TopicTemplate("daq/{pipeline}/{component}").perSample)
        // Characters a broker would read as structure or refuse outright become `_`.
        let odd = Batch(stream: "s", samples: [Sample(uptime: 0, fields: ["site": "a+b#c\u{0}d"])])
        #expect(try TopicTemplate("{site}").render(odd, row: 0, pipeline: "p", component: "c") == "a_b_c_d")
        for bad in ["daq/{stream", "daq/{}/x", "daq/+/x", "daq/#", ""] {
            #expect(throws: ConfigIssue.self) { try TopicTemplate(bad) }
        }
    }
}
