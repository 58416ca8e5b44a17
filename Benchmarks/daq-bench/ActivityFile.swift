// activity-cwa: the recording Benchmarks/activity-summary.sh runs through
// pipelines/activity-summary.yaml: a week (or DAYS) of a wrist-worn AX3 at 100 Hz, nights,
// days and two spans off the wrist, miscalibrated, as DAQTesting's WristActivity makes it.
import DAQTesting
import Foundation

func activityFile(path: String, days: Double, rate: Double) throws {
    var signal = WristActivity()
    signal.rate = rate
    var w = CWAWriter()
    w.rate = rate
    w.seconds = days * 86_400
    // 10:00 local time on 2026-03-02: the first day is cut short, as a real one is.
    w.start = 1_772_445_600
    w.counts = signal.counts
    let started = Date()
    try w.write(to: path)
    let bytes = (try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
    let off = signal.offWrist.map { "\(Int($0.lowerBound))..<\(Int($0.upperBound)) s" }.joined(separator: ", ")
    print(
        "activity-cwa: \(path): \(w.sampleCount) samples, \(bytes / 1_000_000) MB, off the wrist \(off), "
            + "written in \(Int(Date().timeIntervalSince(started))) s")
}
