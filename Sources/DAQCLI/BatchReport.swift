import DAQCore
import Dispatch
import Foundation

/// The table `daq batch` prints at the end.
enum BatchReport {
    static func table(_ results: [BatchResult]) -> String {
        var rows = [["file", "samples", "seconds", "status", "error"]]
        for r in results {
            // A run that finished but did not take a result it was asked for (a calibration
            // that could not be fitted) says so where an error would go.
            let rejected = r.verdicts.filter { !$0.accepted }.map(\.line).joined(separator: "; ")
            rows.append([
                r.input, "\(r.samples)", String(format: "%.2f", r.seconds), r.status.rawValue,
                r.error.map { String($0.split(separator: "\n").first ?? "") } ?? rejected,
            ])
        }
        let widths = (0..<4).map { c in rows.map { $0[c].count }.max()! }
        func cell(_ r: [String], _ c: Int) -> String {
            let pad = String(repeating: " ", count: widths[c] - r[c].count)
            // Numbers right-aligned, text left-aligned.
            return c == 1 || c == 2 ? pad + r[c] : r[c] + pad
        }
        var lines: [String] = rows.map { r in
            let cells: [String] = (0..<4).map { cell(r, $0) }
            let error: String = r[4].isEmpty ? "" : "  " + r[4]
            return cells.joined(separator: "  ") + error
        }
        func count(_ status: BatchResult.Status) -> Int { results.filter { $0.status == status }.count }
        let rejecting = results.filter { r in r.status == .finished && r.verdicts.contains { !$0.accepted } }.count
        let finished =
            "\(count(.finished)) finished" + (rejecting > 0 ? " (\(rejecting) with a result not accepted)" : "")
        var tally =
            "\(results.count) recordings: \(finished), \(count(.skipped)) skipped (already done), \(count(.failed)) failed"
        if count(.interrupted) + count(.notRun) > 0 {
            tally += ", \(count(.interrupted)) interrupted, \(count(.notRun)) not run"
        }
        lines.append(tally)
        return lines.joined(separator: "\n")
    }
}

/// The progress bar of `daq batch` on a terminal: files done/total, samples/s, ETA.
final class ProgressBar {
    private let timer: (any DispatchSourceTimer)?
    private let queue = DispatchQueue(label: "daq.progress")

    init(runner: BatchRunner, enabled: Bool) {
        guard enabled else {
            timer = nil
            return
        }
        let t = DispatchSource.makeTimerSource(queue: queue)
        t.schedule(deadline: .now() + 0.5, repeating: 0.5)
        t.setEventHandler {
            let (done, samples, total) = runner.progress
            let elapsed = Date().timeIntervalSince(runner.started)
            let width = 24
            let filled = total > 0 ? width * done / total : 0
            let bar =
                String(repeating: "=", count: filled) + (filled < width ? ">" : "")
                + String(repeating: " ", count: max(0, width - filled - 1))
            let rate = elapsed > 0 ? Double(samples) / elapsed : 0
            var eta = "--:--"
            if done > 0 && done < total {
                let left = Int(elapsed / Double(done) * Double(total - done))
                eta = String(format: "%d:%02d", left / 60, left % 60)
            }
            let line = "[\(bar)] \(done)/\(total) files · \(RunSummary.rate(rate)) samples/s · ETA \(eta)"
            StandardError.status(line)
        }
        t.activate()
        timer = t
    }

    func stop() {
        guard let timer else { return }
        queue.sync { timer.cancel() }
        StandardError.clearStatus()
    }
}
