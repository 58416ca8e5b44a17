import DAQCore

extension CalibrateTransform {
    /// Feeds the still-window finder with every data sample whose axes and time are finite.
    func survey(_ batch: Batch, into windows: inout StillWindows) {
        guard let xc = batch.column(settings.x), let yc = batch.column(settings.y), let zc = batch.column(settings.z)
        else { return }
        let tc = settings.temperature.isEmpty ? nil : batch.column(settings.temperature)
        if let xs = xc.plainDoubles, let ys = yc.plainDoubles, let zs = zc.plainDoubles,
            tc == nil || tc?.plainDoubles != nil
        {
            // Unboxed, as every device reader gives them: plain arrays, no per-sample switch.
            let ts = tc?.plainDoubles
            let times = batch.timestamps
            let kinds = batch.kinds
            for i in 0..<batch.count where kinds[i] == .data {
                let (x, y, z) = (xs[i], ys[i], zs[i])
                guard x.isFinite, y.isFinite, z.isFinite, times[i].isFinite else { continue }
                windows.add(time: times[i], x: x, y: y, z: z, t: ts?[i] ?? .nan)
            }
            return
        }
        for i in 0..<batch.count where batch.kinds[i] == .data {
            guard let x = xc.double(at: i), let y = yc.double(at: i), let z = zc.double(at: i),
                x.isFinite, y.isFinite, z.isFinite, batch.timestamps[i].isFinite
            else { continue }
            windows.add(time: batch.timestamps[i], x: x, y: y, z: z, t: tc?.double(at: i) ?? .nan)
        }
    }

    /// Rewrites the axes of every data sample by `c`, column by column. A sample without a
    /// temperature (or without a numeric one) gets no temperature term.
    func correct(_ batch: inout Batch, by c: AxisCorrection, context: StageContext) {
        let temperatures = c.usesTemperature && !settings.temperature.isEmpty ? batch.column(settings.temperature) : nil
        for (k, name) in [settings.x, settings.y, settings.z].enumerated() {
            guard let column = batch.column(name) else { continue }
            if var values = column.plainDoubles {
                // Unboxed, the common case: one tight loop over a plain array.
                let (offset, gain, slope) = (c.offset[k], c.gain[k], c.temperature[k])
                if let ts = temperatures?.plainDoubles, slope != 0 {
                    for i in values.indices {
                        let t = ts[i].isNaN ? c.reference : ts[i]
                        values[i] = offset + gain * values[i] + slope * (t - c.reference)
                    }
                } else if let temperatures, slope != 0 {
                    for i in values.indices {
                        let t = temperatures.double(at: i) ?? c.reference
                        values[i] = c.apply(values[i], axis: k, temperature: t.isNaN ? c.reference : t)
                    }
                } else {
                    for i in values.indices { values[i] = offset + gain * values[i] }
                }
                batch.setColumn(Column(name: name, doubles: values))
                continue
            }
            var values = column.boxedValues
            for i in values.indices where batch.kinds[i] == .data && !column.isAbsent(i) {
                guard let v = column.double(at: i), values[i].isNumber else { continue }
                let t = temperatures?.double(at: i) ?? c.reference
                values[i] = .double(c.apply(v, axis: k, temperature: t.isNaN ? c.reference : t))
            }
            batch.setColumn(
                column.absent.map { Column(name: name, values: values, absent: $0) }
                    ?? Column(name: name, values: values))
        }
    }
}

extension Value {
    /// Whether the value is an int or a double, which the correction turns into a double.
    fileprivate var isNumber: Bool {
        switch self {
        case .int, .double: return true
        default: return false
        }
    }
}
