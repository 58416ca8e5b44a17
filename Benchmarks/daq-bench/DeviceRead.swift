// gt3x-read, cwa-read, geneactiv-read: a 24-hour, 100 Hz recording (8.64 M samples) made by the
// DAQTesting writer, read by motion.replay into a null sink on the virtual clock; then the same
// file read, from the same run, by actfast and actipy (and pygt3x for .gt3x), for the ratio.
// Prints samples/s and this process's peak RSS.
import DAQCore
import DAQKit
import DAQTesting
import Foundation

func gt3xRead(hours: Double, packed: Bool) throws {
    let path = benchFile("gt3x")
    defer { if keptDirectory == nil { try? FileManager.default.removeItem(atPath: path) } }
    var w = GT3XWriter()
    w.rate = 100
    w.seconds = Int(hours * 3600)
    w.activity = packed ? .activity : .activity2
    w.method = .deflated(level: 1)
    try w.write(to: path)
    let bytes = (try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
    let samples = Double(w.seconds * w.rate)
    print("gt3x-read: \(packed ? "ACTIVITY" : "ACTIVITY2"), \(Int(samples)) samples, \(bytes / 1_000_000) MB zip")

    let ours = try replayToNull(path, samples: samples)

    try comparePeers(
        [
            (
                "actfast",
                "import actfast,sys; d=actfast.read(sys.argv[1]); print(len(d['timeseries']['acceleration']['datetime']))"
            ),
            ("actipy", actipyScript),
            (
                "pygt3x",
                "import sys\nfrom pygt3x.reader import FileReader\nwith FileReader(sys.argv[1]) as r: print(len(r.to_pandas()))"
            ),
        ], path: path, samples: samples, ours: ours)
}

/// cwa-read: a 24-hour, 100 Hz AX3 .cwa (8.64 M samples, packed unless `packed` is false)
/// made by CWAWriter, read by motion.replay into a null sink, then by actfast on the same file.
func cwaRead(hours: Double, packed: Bool) throws {
    let path = benchFile("cwa")
    defer { if keptDirectory == nil { try? FileManager.default.removeItem(atPath: path) } }
    var w = CWAWriter()
    w.rate = 100
    w.seconds = hours * 3600
    w.packing = packed ? .packed : .unpacked
    try w.write(to: path)
    let bytes = (try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
    let samples = Double(w.sampleCount)
    print("cwa-read: AX3 \(packed ? "packed" : "unpacked"), \(w.sampleCount) samples, \(bytes / 1_000_000) MB")

    let ours = try replayToNull(path, samples: samples)

    try comparePeers(
        [
            (
                "actfast",
                "import actfast,sys; d=actfast.read(sys.argv[1]); print(len(d['timeseries']['high_frequency']['datetime']))"
            ),
            ("actipy", actipyScript),
        ], path: path, samples: samples, ours: ours)
}

/// geneactiv-read: a 24-hour, 100 Hz GENEActiv .bin (8.64 M samples in 28,800 hex pages) made by
/// GENEActivWriter, read by motion.replay into a null sink, then by actfast on the same file.
func geneactivRead(hours: Double) throws {
    let path = benchFile("bin")
    defer { if keptDirectory == nil { try? FileManager.default.removeItem(atPath: path) } }
    var w = GENEActivWriter()
    w.frequency = 100
    let pages = Int(hours * 3600 * 100 / 300)
    try w.write(to: path, pages: pages) { i in
        GENEActivWriter.RawSample(x: i % 400 - 200, y: (i / 3) % 300 - 150, z: 400 + i % 50, light: i % 1000)
    }
    let bytes = (try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
    let samples = Double(pages * 300)
    print("geneactiv-read: \(Int(samples)) samples, \(bytes / 1_000_000) MB")

    let ours = try replayToNull(path, samples: samples)

    try comparePeers(
        [
            (
                "actfast",
                "import actfast,sys; d=actfast.read(sys.argv[1]); print(len(d['timeseries']['high_frequency']['datetime']))"
            ),
            ("actipy", actipyScript),
        ], path: path, samples: samples, ours: ours)
}

/// `DAQ_BENCH_KEEP=DIR` keeps the generated recording there, for timing other readers on it.
let keptDirectory = ProcessInfo.processInfo.environment["DAQ_BENCH_KEEP"]

/// Where a benchmark writes its recording: `DAQ_BENCH_KEEP`'s folder, or a temporary file.
func benchFile(_ ext: String) -> String {
    if let keptDirectory { return keptDirectory + "/daq-bench." + ext }
    return FileManager.default.temporaryDirectory.appendingPathComponent("daq-bench-\(UUID().uuidString).\(ext)").path
}

/// actipy (Java parser, pandas frame), reading only: no calibration, filtering or resampling.
let actipyScript = """
    import sys, actipy
    data, info = actipy.read_device(sys.argv[1], lowpass_hz=None, calibrate_gravity=False, detect_nonwear=False, resample_hz=None, verbose=False)
    print(len(data))
    """

/// Times each peer reading `path` in its own process (interpreter start included) and prints
/// its rate and DAQKit's lead; a peer that reads a different number of samples is not compared.
func comparePeers(_ peers: [(String, String)], path: String, samples: Double, ours: Double) throws {
    for (name, script) in peers {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["python3", "-c", script, path]
        let out = Pipe()
        p.standardOutput = out
        p.standardError = FileHandle.nullDevice
        let t0 = DispatchTime.now().uptimeNanoseconds
        try p.run()
        let printed = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        let s = Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e9
        let status = p.terminationStatus == 0 ? "" : " (exit \(p.terminationStatus); is it installed?)"
        // actfast 1.3.0 reads ACTIVITY records only: on an ACTIVITY2 file it returns no samples,
        // and its time would flatter it.
        let read = Int(String(decoding: printed, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
        if read != Int(samples) {
            print("\(name): read \(read) of \(Int(samples)) samples in \(fixed(s, 2)) s: not compared\(status)")
            continue
        }
        print(
            "\(name): \(fixed(s, 2)) s incl. interpreter start, \(fixed(samples / s / 1e6, 2)) M samples/s, DAQKit ×\(fixed(s / ours, 1))"
        )
    }
}

/// Reads `path` with motion.replay into a null sink on the virtual clock, prints the rate and
/// this process's peak RSS, and returns the seconds it took.
func replayToNull(_ path: String, samples: Double) throws -> Double {
    let yaml = """
        name: device-read
        clock: virtual
        sources: {rec: {type: motion.replay, path: "\(path)"}}
        sinks: {out: {type: "null", inputs: [rec]}}
        """
    let registry = try PluginRegistry(BuiltinPlugins.all)
    let spec = try PipelineLoader(registry: registry).load(text: yaml, file: "device-read")
    let started = DispatchTime.now().uptimeNanoseconds
    let run = try PipelineRun(spec: spec)
    try run.start()
    let result = run.wait()
    let ours = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
    guard result.state == .finished else { throw BenchError("the run ended \(result.state): \(result.failure ?? "")") }
    print(
        "motion.replay → null: \(fixed(ours, 2)) s, \(fixed(samples / ours / 1e6, 2)) M samples/s, peak RSS \(fixed(peakRSSMiB(), 0)) MiB"
    )
    return ours
}
