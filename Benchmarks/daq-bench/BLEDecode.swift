// ble-decode: how fast `ble.replay` turns a btsnoop capture into decoded samples.
//
// The shipped capture is small, so its records are repeated, with their timestamps shifted,
// into a temporary btsnoop file of about REPORTS advertising reports; a pipeline on the
// virtual clock replays it into the `null` sink. Prints reports per second and peak RSS: the
// RSS must not grow with the file, since the source streams.
import DAQCore
import DAQKit
import Foundation

func bleDecode(capture: String, reports target: Int) throws {
    guard let original = FileManager.default.contents(atPath: capture), original.count > 16,
        original.starts(with: Array("btsnoop\0".utf8))
    else { throw BenchError("\(capture): not a btsnoop capture") }
    let records = try btsnoopRecords(original)
    let perCopy = try countReports(capture)
    let copies = max(1, (target + perCopy - 1) / perCopy)
    let span = (records.last?.time ?? 0) - (records.first?.time ?? 0) + 1_000_000
    let path = NSTemporaryDirectory() + "daq-bench-ble-\(getpid()).btsnoop"
    defer { unlink(path) }
    try writeRepeated(header: original.prefix(16), records: records, copies: copies, span: span, to: path)
    let size = (try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0

    let rssBefore = peakRSSMiB()
    let cpuBefore = cpuSeconds()
    let started = DispatchTime.now().uptimeNanoseconds
    let count = try countReports(path)
    let seconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
    let cpu = cpuSeconds() - cpuBefore
    print("ble-decode: \(count) reports (\(copies) copies of \(capture)), \(size / 1_048_576) MiB btsnoop")
    print(
        "ble.replay → null on the virtual clock: \(fixed(seconds, 2)) s, \(fixed(Double(count) / seconds / 1e6, 2)) M reports/s, \(fixed(Double(size) / seconds / 1_048_576, 0)) MiB/s"
    )
    // On a shared machine the wall time depends on the other work; the CPU time much less.
    print("CPU time (all threads): \(fixed(cpu, 2)) s, \(fixed(Double(count) / cpu / 1e6, 2)) M reports per CPU-second")
    print("peak RSS: \(fixed(peakRSSMiB(), 1)) MiB (before the run: \(fixed(rssBefore, 1)) MiB)")
}

/// Runs the capture through `ble.replay` into `null`; returns the samples the sink took.
private func countReports(_ path: String) throws -> Int {
    let yaml = """
        name: ble-decode
        clock: virtual
        sources: {capture: {type: ble.replay, path: "\(path)"}}
        sinks: {out: {type: "null", inputs: [capture]}}
        """
    let registry = try PluginRegistry(BuiltinPlugins.all)
    let spec = try PipelineLoader(registry: registry).load(text: yaml, file: "ble-decode")
    let run = try PipelineRun(spec: spec)
    try run.start()
    let result = run.wait()
    if let failure = result.failure { throw BenchError(failure) }
    return result.stages.first { $0.name == "out" }?.samplesIn ?? 0
}

private struct Record {
    var time: Int64
    var bytes: Data
}

/// The records of a btsnoop file; each keeps its 24-byte header and its packet.
private func btsnoopRecords(_ data: Data) throws -> [Record] {
    var records: [Record] = []
    var at = data.startIndex + 16
    func be<T: FixedWidthInteger>(_ offset: Int, _: T.Type) -> T {
        data[offset..<offset + MemoryLayout<T>.size].reduce(0) { $0 << 8 | T($1) }
    }
    while at + 24 <= data.endIndex {
        let included = Int(be(at + 4, UInt32.self))
        guard at + 24 + included <= data.endIndex else { throw BenchError("record at \(at) cut short") }
        records.append(Record(time: be(at + 16, Int64.self), bytes: data[at..<at + 24 + included]))
        at += 24 + included
    }
    return records
}

/// Writes the records `copies` times, copy k shifted by k·span µs, so time keeps increasing.
private func writeRepeated(header: Data, records: [Record], copies: Int, span: Int64, to path: String) throws {
    guard FileManager.default.createFile(atPath: path, contents: header), let out = FileHandle(forWritingAtPath: path)
    else {
        throw BenchError("cannot write \(path)")
    }
    defer { try? out.close() }
    out.seekToEndOfFile()
    var chunk = Data()
    for copy in 0..<copies {
        for record in records {
            var bytes = record.bytes
            let time = UInt64(bitPattern: record.time + Int64(copy) * span)
            let base = bytes.startIndex + 16
            for i in 0..<8 { bytes[base + i] = UInt8(truncatingIfNeeded: time >> (56 - 8 * UInt64(i))) }
            chunk.append(bytes)
        }
        if chunk.count > 1 << 22 {
            out.write(chunk)
            chunk.removeAll(keepingCapacity: true)
        }
    }
    out.write(chunk)
    // On disk before the clock starts: the kernel writing back this setup file during the
    // timed run was measured as decoding time (44% I/O wait in top).
    try? out.synchronize()
}

/// User and system CPU time of this process so far, every thread, in seconds.
private func cpuSeconds() -> Double {
    var usage = rusage()
    getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
    func s(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) / 1e6 }
    return s(usage.ru_utime) + s(usage.ru_stime)
}

/// `value` with `digits` decimals, for the report lines only.
func fixed(_ value: Double, _ digits: Int) -> String {
    String(format: "%.\(digits)f", value)
}
