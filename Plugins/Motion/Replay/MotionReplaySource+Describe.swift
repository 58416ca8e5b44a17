import DAQCore

extension MotionReplaySource {
    /// The axes in the unit the recording states (device files: g; a phone CSV: m/s² unless
    /// `units: g`), the device's channels, the rate it was configured for, its clock's zone (or
    /// `time_zone`), and dates of its own when its times are dates. Reads the file's header and,
    /// for text formats, its first row. A recording that cannot be read twice (a FIFO) is not
    /// read here: the replay declares what it found when its first rows are read.
    public func describe(context: PluginContext) throws -> StreamDescriptor {
        // A missing file is opened below, which says so with its path.
        if RegularFile.isOther(at: resolvedPath) {
            let unit: String? = units == .g ? "g" : nil
            return StreamDescriptor(
                fields: ["x", "y", "z"].map { FieldDescriptor($0, .double, unit: unit) }, timeBase: .elapsed,
                timeZone: timeZoneGiven ? configuredTimeZone : nil,
                origin: StreamOrigin(plugin: Self.typeName, file: configuredPath))
        }
        let reader = try open()
        var first = RowBuffer(capacity: 1)
        // A row that cannot be read is the run's to report, with its policy; here it only ends the look.
        _ = try? reader.read(into: &first, limit: 1)
        return descriptor(of: reader, first: first)
    }

    /// The descriptor of the recording `reader` reads, judged by its first rows (`first`).
    func descriptor(of reader: any RecordingReader, first: RowBuffer) -> StreamDescriptor {
        let info = reader.info
        var d = StreamDescriptor()
        let unit = info.flatMap { Self.axisUnit($0.units) }
        d.fields = ["x", "y", "z"].map { FieldDescriptor($0, .double, unit: unit) }
        for (i, name) in reader.extraNames.enumerated() {
            let value = first.extras.first.flatMap { i < $0.count ? $0[i] : nil } ?? .null
            d.fields.append(FieldDescriptor(name, FieldType(of: value) ?? .any))
        }
        for name in reader.channelNames {
            d.fields.append(FieldDescriptor(name, .double, unit: Self.channelUnits[name]))
        }
        if reader is GT3XReader { d.fields.append(FieldDescriptor("idle", .bool)) }
        d.rate = info?.nominalRate.map(SampleRate.hz) ?? .irregular
        if info?.start != nil {
            d.timeBase = .recorded
        } else if let t = first.times.first {
            // Times before 2001 count from the recording's start, not from 1970.
            d.timeBase = t + reader.timeOffset >= 1e9 ? .recorded : .elapsed
        } else {
            d.timeBase = .elapsed
        }
        d.timeZone = timeZoneGiven ? configuredTimeZone : info?.timeZone
        d.origin = StreamOrigin(
            plugin: Self.typeName, device: info?.device, serial: info?.serial, file: configuredPath)
        d.metadata["format"] = info?.format ?? formatName(of: reader)
        for (key, value) in info?.extra ?? [] { d.metadata[key] = value }
        return d
    }

    /// The unit a recording states for its axes, as descriptors spell it; `nil` when unknown.
    static func axisUnit(_ stated: String) -> String? {
        switch stated {
        case "g": return "g"
        case "m/s^2", "m/s²": return "m/s²"
        case "as recorded", "": return nil
        default: return stated
        }
    }

    /// Units of the channels device files carry beside the axes.
    static let channelUnits: [String: String] = [
        "gx": "°/s", "gy": "°/s", "gz": "°/s", "temperature": "°C", "lux": "lux",
    ]

    private func formatName(of reader: any RecordingReader) -> String {
        reader is JSONRecordingReader ? "json" : "csv"
    }
}
