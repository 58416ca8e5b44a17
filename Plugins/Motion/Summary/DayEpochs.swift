/// One calendar day's epochs, held until the day is over, and the day's summary worked out
/// from them.
///
/// Memory is one day of epochs (17,280 of 5 s), in buffers whose capacity is reused day after
/// day.
struct DayEpochs {
    /// Seconds from the day's start to each epoch's start.
    private var offsets: [Int] = []
    private var values: [Double] = []
    private var worn: [Bool] = []
    /// Per epoch slot of the day, for the M5/L5 windows: the value, and whether the slot holds
    /// a worn epoch; both reused.
    private var slotSums: [Double] = []
    private var slotGaps: [Int] = []

    var count: Int { offsets.count }
    var isEmpty: Bool { offsets.isEmpty }

    mutating func append(offset: Int, value: Double, worn isWorn: Bool) {
        offsets.append(offset)
        values.append(value)
        worn.append(isWorn)
    }

    mutating func removeAll() {
        offsets.removeAll(keepingCapacity: true)
        values.removeAll(keepingCapacity: true)
        worn.removeAll(keepingCapacity: true)
    }

    /// The summary of the day `[start, start + length)` whose epochs last `epoch` seconds each.
    ///
    /// Non-wear epochs count in the epochs and hours recorded only: the mean, the band minutes
    /// and the M5/L5 windows are over worn epochs, and a window qualifies only when every epoch
    /// slot in it holds a worn epoch (see ``DailySummarySink``).
    mutating func summary(
        date: String, start: Double, length: Double, epoch: Int, bands: [Double], window: Double
    ) -> DayRow {
        var row = DayRow(date: date, dayHours: length / 3_600, bandMinutes: Array(repeating: 0, count: bands.count + 1))
        row.epochs = offsets.count
        row.recordedHours = Double(offsets.count * epoch) / 3_600
        var wornCount = 0
        var sum = 0.0
        var inBand = Array(repeating: 0, count: bands.count + 1)
        for i in 0..<offsets.count where worn[i] {
            wornCount += 1
            sum += values[i]
            var band = 0
            while band < bands.count && values[i] >= bands[band] { band += 1 }
            inBand[band] += 1
        }
        row.wearHours = Double(wornCount * epoch) / 3_600
        row.mean = wornCount > 0 ? sum / Double(wornCount) : nil
        row.bandMinutes = inBand.map { Double($0 * epoch) / 60 }
        (row.m5, row.l5) = extremes(start: start, length: length, epoch: epoch, window: window)
        return row
    }

    /// The most and least active windows of `window` seconds, sliding by one epoch from local
    /// midnight and ending by the next: each the mean of its epochs with its start (UTC), the
    /// earliest of equal ones; `nil` when no window is worn throughout.
    private mutating func extremes(start: Double, length: Double, epoch: Int, window: Double) -> (
        DayRow.Window?, DayRow.Window?
    ) {
        let slots = Int((length / Double(epoch)).rounded(.up))
        let k = max(1, Int((window / Double(epoch)).rounded()))
        guard slots >= k else { return (nil, nil) }
        // Prefix sums of the values and of the slots without a worn epoch: a window's sum and
        // gap count are two subtractions each.
        slotSums.removeAll(keepingCapacity: true)
        slotGaps.removeAll(keepingCapacity: true)
        slotSums.append(contentsOf: repeatElement(0, count: slots + 1))
        slotGaps.append(contentsOf: repeatElement(1, count: slots + 1))
        slotGaps[0] = 0
        for i in 0..<offsets.count where worn[i] {
            let s = offsets[i] / epoch
            guard s < slots else { continue }
            slotSums[s + 1] = values[i]
            slotGaps[s + 1] = 0
        }
        for s in 0..<slots {
            slotSums[s + 1] += slotSums[s]
            slotGaps[s + 1] += slotGaps[s]
        }
        var most: (Double, Int)?
        var least: (Double, Int)?
        for s in 0...(slots - k) where slotGaps[s + k] == slotGaps[s] {
            let mean = (slotSums[s + k] - slotSums[s]) / Double(k)
            if most == nil || mean > most!.0 { most = (mean, s) }
            if least == nil || mean < least!.0 { least = (mean, s) }
        }
        func place(_ found: (Double, Int)?) -> DayRow.Window? {
            found.map { DayRow.Window(mean: $0.0, start: start + Double($0.1 * epoch)) }
        }
        return (place(most), place(least))
    }
}

/// One row of the daily summary.
struct DayRow: Equatable {
    /// A most or least active window: its mean and its start (UTC seconds).
    struct Window: Equatable {
        var mean: Double
        var start: Double
    }

    var date: String
    var dayHours: Double
    var epochs = 0
    var recordedHours = 0.0
    var wearHours = 0.0
    /// Mean over worn epochs; `nil` when none was worn.
    var mean: Double?
    /// Minutes worn in each band, lowest first.
    var bandMinutes: [Double]
    var m5: Window?
    var l5: Window?
}
