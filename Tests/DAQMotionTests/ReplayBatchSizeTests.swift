import DAQCore
import DAQMotion
import DAQTesting
import Testing

/// The replay places rows on the run clock the same at every batch size: a buffer of rows all
/// finite, in order and inside `start…end` takes the bulk path, any other the row-by-row rule,
/// and a recording that mixes both must come out as if read in one piece.
@Suite(.timeLimit(.minutes(20))) struct ReplayBatchSizeTests {
    /// 10 Hz with jitter, a repeated time, a time going back, a NaN row and a gap; over 1,024
    /// rows, so a loop starts over with the replay's intervals already gathered.
    private static let text: String = {
        var lines = ["t,x,y,z"]
        var t = 0.0
        for i in 0..<1200 {
            t += 0.1 + Double(i % 7) * 0.001
            if i == 50 { t -= 0.1 }  // the same time as the row before
            if i == 120 { t -= 0.35 }  // back by a quarter second
            if i == 300 { t += 2.5 }  // a gap
            let x = i == 200 ? "nan" : String(i)
            lines.append("\(t),\(x),0.5,1")
        }
        return lines.joined(separator: "\n") + "\n"
    }()

    private func read(_ path: String, _ extra: String, batchSize: Int, limit: Int = .max) throws -> (
        [Sample], [String]
    ) {
        let h = try replay(path, "time_unit: s\nnan: skip\n" + extra)
        let (samples, _) = try h.read(limit: limit, batchSize: batchSize)
        return (samples, h.events.warnings + h.events.notices)
    }

    @Test(arguments: ["", "start: 3 s\nend: 30 s", "loop: true"])
    func everyBatchSizePlacesTheRowsAsOneBatchDoes(options: String) throws {
        let limit = options.contains("loop") ? 3000 : Int.max
        let path = recording("mixed.csv", Self.text)
        let (whole, wholeEvents) = try read(path, options, batchSize: 4096, limit: limit)
        #expect(whole.count > 200)
        for size in [1, 7, 64] {
            let (samples, events) = try read(path, options, batchSize: size, limit: limit)
            #expect(samples.count == whole.count, "batch size \(size)")
            #expect(samples.map(\.uptime) == whole.map(\.uptime), "batch size \(size)")
            #expect(samples.map(\.timestamp) == whole.map(\.timestamp), "batch size \(size)")
            #expect(samples.map { $0.number("x") } == whole.map { $0.number("x") }, "batch size \(size)")
            #expect(events == wholeEvents, "batch size \(size)")
        }
    }
}
