import DAQBLE
import DAQCore
import DAQTesting
import Testing

/// A capture that cannot be read fails the run with a ``DAQError`` placed at its byte.
@Suite(.timeLimit(.minutes(20))) struct CaptureErrorTests {
    @Test func aBadCaptureHeaderIsBadInputAtItsByte() throws {
        let bytes: [UInt8] = Array("btsnoop\0".utf8) + CaptureWriter.be32(1) + CaptureWriter.be32(1234)
        let path = CaptureWriter.write(bytes, name: "datalink.log")
        let registry = try PluginRegistry(BLEPlugins.all + [.collect])
        let spec = try PipelineLoader(registry: registry, environment: [:]).load(
            text: """
                clock: virtual
                sources: {ble: {type: ble.replay, path: "\(path)"}}
                sinks: {out: {type: collect, inputs: [ble]}}
                """, file: "t.yaml")
        let run = try PipelineRun(spec: spec)
        // Whether the reader complains while starting or at its first read, the run ends failed.
        _ = try? run.start()
        let result = run.wait()
        #expect(result.state == .failed)
        let error = try #require(result.error)
        #expect(error.code == .badInput)
        #expect(error.component == "ble")
        #expect(error.location == DAQError.Location(file: path, byteOffset: 12))
        #expect(error.message.hasSuffix("btsnoop datalink 1234: expected 1001 (HCI), 1002 (H4) or 2001 (monitor)"))
    }
}
