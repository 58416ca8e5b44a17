import DAQCore
import DAQMotion
import DAQTesting
import Foundation
import Testing

/// .gt3x read by `motion.replay` against readers others wrote: pygt3x (ActiGraph's own) and
/// actfast (Rust), on files from the DAQTesting writer and on a file Python's zipfile builds
/// from the specification. Values agree to 1e-6 g, times to 1 ms; where the readers differ by
/// design, the test says how and compares the rest.
@Suite(.timeLimit(.minutes(20))) struct GT3XCrossCheckTests {
    /// pygt3x's calibrated output: local time (s), x, y, z (g, float32), idle-sleep flag.
    static let pygt3x = """
        import sys, numpy as np
        from pygt3x.reader import FileReader
        with FileReader(sys.argv[1]) as r:
            df = r.to_pandas()
        a = np.column_stack([df.index.values.astype('float64'), df['X'].values.astype('float64'),
            df['Y'].values.astype('float64'), df['Z'].values.astype('float64'), df['IdleSleepMode'].values.astype(int)])
        np.savetxt(sys.stdout, a, fmt=['%.6f', '%.9g', '%.9g', '%.9g', '%d'], delimiter=',')
        """

    /// actfast's acceleration: local time from int64 ns, x, y, z (g, float32), no flag.
    static let actfast = """
        import sys, numpy as np, actfast
        a = actfast.read(sys.argv[1])['timeseries']['acceleration']
        t = a['datetime'].astype('float64') / 1e9
        v = np.asarray(a['acceleration'], dtype='float64').reshape(-1, 3)
        np.savetxt(sys.stdout, np.column_stack([t, v, np.zeros(len(t))]), fmt=['%.6f', '%.9g', '%.9g', '%.9g', '%d'], delimiter=',')
        """

    /// `ours` (UTC) against a Python reader's rows (device local time, `offset` ahead of UTC).
    func compare(
        _ ours: [Sample], _ theirs: [(time: Double, x: Double, y: Double, z: Double, flag: Bool)], offset: Double,
        flags: Bool, _ what: String
    ) {
        #expect(ours.count == theirs.count, "\(what): \(ours.count) samples here, \(theirs.count) there")
        var bad = 0
        for (s, r) in zip(ours, theirs) {
            let ok =
                close(s.timestamp + offset, r.time, 1e-3) && close(s.number("x"), r.x, 1e-6)
                && close(s.number("y"), r.y, 1e-6)
                && close(s.number("z"), r.z, 1e-6) && (!flags || (s["idle"] == .bool(true)) == r.flag)
            if !ok {
                bad += 1
                if bad <= 3 {
                    Issue.record(
                        "\(what): here t=\(s.timestamp + offset) (\(s.number("x")), \(s.number("y")), \(s.number("z"))) idle=\(s["idle"] == .bool(true)); there \(r)"
                    )
                }
            }
        }
        #expect(bad == 0, "\(what): \(bad) samples differ")
    }

    @Test func packedActivityWithIdleSleepAndACorruptRecordAgreesWithPygt3xAndActfast() throws {
        let w = GT3XWriter.with {
            $0.activity = .activity
            $0.rate = 50
            $0.seconds = 40
            $0.idleSleep = [10..<16, 30..<33]
            $0.corrupt = [20]
            $0.utcOffset = -4 * 3600
            $0.counts = { n in (x: (n * 37) % 4000 - 2000, y: 1900 - (n * 11) % 3800, z: 256 + (n % 50) - 25) }
        }
        let path = try w.file()
        let (ours, _) = try replayAll(path, "on_bad_row: skip")
        expectRows(ours, w.expectedRows(), "motion.replay")
        let offset = Double(w.utcOffset)

        // pygt3x also skips the bad record (leaving its second empty) and fills idle sleep from
        // the second after the last record to the wake-up event with the last sample: the same rows.
        compare(ours, parseRows(try python(Self.pygt3x, [path])), offset: offset, flags: true, "pygt3x")

        // actfast checks no checksum (it keeps the corrupt record, whose samples are intact here)
        // and fills nothing: compared on the measured seconds both give.
        let theirs = parseRows(try python(Self.actfast, [path])).filter {
            !w.corrupt.contains(Int(($0.time - offset).rounded(.down)) - w.start)
        }
        compare(ours.filter { $0["idle"] != .bool(true) }, theirs, offset: offset, flags: false, "actfast")
    }

    @Test func activity2AgreesWithPygt3x() throws {
        let w = GT3XWriter.with {
            $0.rate = 100
            $0.seconds = 30
            $0.idleSleep = [12..<20]
            $0.counts = { n in (x: (n * 97) % 8000 - 4000, y: -((n * 31) % 2000), z: 256 + (n % 7)) }
        }
        let path = try w.file()
        let (ours, _) = try replayAll(path)
        expectRows(ours, w.expectedRows(), "motion.replay")
        compare(ours, parseRows(try python(Self.pygt3x, [path])), offset: Double(w.utcOffset), flags: true, "pygt3x")
        // actfast 1.3.0 (the pinned version) reads ACTIVITY records only: from this file, all
        // ACTIVITY2, it returns no sample and no warning. An actfast that reads ACTIVITY2 fails
        // this line; compare with it then, on the measured seconds, as the test above does.
        let theirs = parseRows(try python(Self.actfast, [path]))
        #expect(theirs.isEmpty, "actfast reads ACTIVITY2 now (\(theirs.count) rows): compare with it here")
    }

    /// pygt3x's NHANES reading: its time is `Start Date / 1e9` (ticks taken for nanoseconds, so
    /// not a date) plus `n / rate`, and its values are rounded to 0.001 g at 341 counts per g.
    static let pygt3xNHANES = """
        import sys, numpy as np
        from pygt3x.reader import FileReader
        with FileReader(sys.argv[1]) as r:
            assert r.nhanes
            a = r.acceleration
        np.savetxt(sys.stdout, a[:, :4] - [a[0, 0], 0, 0, 0], fmt=['%.6f', '%.9g', '%.9g', '%.9g'], delimiter=',')
        """

    /// The old NHANES layout (activity.bin, GT3X+ up to firmware 2.5.0), read as pygt3x reads
    /// it: the same samples in the same order, each at the start plus `n / rate`; pygt3x's
    /// values are rounded to 0.001 g and its times are relative (see ``pygt3xNHANES``). Read in
    /// batches of 1, 7 and 4,096 rows, since a sample pair straddles the reads.
    @Test(arguments: [1, 7, 4096])
    func theNHANESLayoutAgreesWithPygt3x(batch: Int) throws {
        let w = GT3XWriter.with {
            $0.layout = .nhanes
            $0.activity = .activity
            $0.rate = 30
            $0.seconds = 25
            $0.scale = 341
            $0.serial = "NEO1C12345678"
            $0.utcOffset = -5 * 3600
            $0.counts = { n in (x: (n * 37) % 4000 - 2000, y: 1900 - (n * 11) % 3800, z: 341 + (n % 50) - 25) }
        }
        let path = try w.file()
        let (ours, status) = try replay(path).read(batchSize: batch)
        #expect(status == .finished)
        expectRows(ours, w.expectedRows(), "motion.replay")
        let theirs = try python(Self.pygt3xNHANES, [path]).split(separator: "\n").map {
            $0.split(separator: ",").map { Double($0)! }
        }
        #expect(theirs.count == ours.count, "\(theirs.count) samples from pygt3x, \(ours.count) here")
        var bad = 0
        for (s, r) in zip(ours, theirs) {
            let ok =
                close(s.timestamp - ours[0].timestamp, r[0], 1e-5) && close(s.number("x"), r[1], 5.01e-4)
                && close(s.number("y"), r[2], 5.01e-4) && close(s.number("z"), r[3], 5.01e-4)
            if !ok {
                bad += 1
                if bad <= 3 {
                    Issue.record("here \(s.timestamp) \(s.number("x")) \(s.number("y")) \(s.number("z")); pygt3x \(r)")
                }
            }
        }
        #expect(bad == 0, "\(bad) samples differ from pygt3x")
    }

    /// A .gt3x built by Python's zipfile and struct straight from the specification, not by the
    /// DAQTesting writer: random counts, both record types, idle sleep, a USB record. The script prints what each sample must be.
    static let independent = """
        import sys, struct, zipfile, random
        random.seed(21)
        rate, t0, tz = 40, 1_650_000_000, -5 * 3600
        def record(kind, ts, payload):
            body = struct.pack('<BBIH', 0x1E, kind, ts, len(payload)) + payload
            c = 0
            for b in body: c ^= b
            return body + bytes([~c & 0xFF])
        def packed(samples):
            bits = ''.join(format(v & 0xFFF, '012b') for s in samples for v in (s[1], s[0], s[2]))
            bits += '0' * (-len(bits) % 8)
            return int(bits, 2).to_bytes(len(bits) // 8, 'big')
        scale, log, rows, last = 341.0, b'', [], None
        log += record(0x15, t0 + tz, struct.pack('<HHI', 1, 10, rate) + struct.pack('<HHI', 1, 2, 4) + struct.pack('<HHI', 0, 55, (9 << 24) | int(341 / 512 * 2**23)))
        scale = (int(341 / 512 * 2**23) / 2**23) * 512
        for s in range(30):
            ts = t0 + tz + s
            if s == 8: log += record(3, ts, b'\\x08')
            if 8 <= s < 14:
                if last: rows += [(t0 + s + i / rate, *last, 1) for i in range(rate)]
                continue
            if s == 14: log += record(3, ts, b'\\x09')
            samples = [(random.randint(-2048, 2047), random.randint(-2048, 2047), random.randint(-2048, 2047)) for _ in range(rate)]
            if s % 2: log += record(0x1A, ts, b''.join(struct.pack('<hhh', *v) for v in samples))
            else: log += record(0x00, ts, packed(samples))
            rows += [(t0 + s + i / rate, v[0] / scale, v[1] / scale, v[2] / scale, 0) for i, v in enumerate(samples)]
            last = rows[-1][1:4]
        log += record(0x00, t0 + tz + 30, b'\\x01')
        info = f'Serial Number: NEO1F00000001\\nDevice Type: GT3XPlus\\nSample Rate: {rate}\\nStart Date: {(t0 + tz) * 10**7 + 621355968000000000}\\nTimeZone: -05:00:00\\nAcceleration Scale: 341.0\\n'
        with zipfile.ZipFile(sys.argv[1], 'w', zipfile.ZIP_DEFLATED) as z:
            z.writestr('info.txt', info)
            z.writestr('log.bin', log)
        for r in rows: print('%.6f,%.9g,%.9g,%.9g,%d' % r)
        """

    @Test func aFileBuiltByPythonFromTheSpecificationAgreesWithItsOwnValuesAndPygt3x() throws {
        let path = tempDirectory() + "/python.gt3x"
        let truth = parseRows(try python(Self.independent, [path]))
        #expect(truth.count == 30 * 40)
        let (ours, events) = try replayAll(path)
        #expect(events.notices.first?.contains("(device clock in -05:00)") == true, "\(events.notices)")
        compare(ours, truth, offset: 0, flags: true, "the script's own values")
        // pygt3x takes its scale from info.txt, this reader from PARAMETERS: both say 341.
        compare(ours, parseRows(try python(Self.pygt3x, [path])), offset: -5 * 3600, flags: true, "pygt3x")
    }

    /// The byte examples of the specification's ACTIVITY and ACTIVITY2 pages, framed by hand.
    @Test func theSpecificationsOwnExamplesDecodeToItsValues() throws {
        func record(_ type: UInt8, _ ts: UInt32, _ payload: [UInt8]) -> [UInt8] {
            var r: [UInt8] = [
                0x1E, type, UInt8(ts & 0xFF), UInt8(ts >> 8 & 0xFF), UInt8(ts >> 16 & 0xFF), UInt8(ts >> 24),
                UInt8(payload.count & 0xFF), UInt8(payload.count >> 8),
            ]
            r += payload
            r.append(~r.reduce(0, ^))
            return r
        }
        func zip(_ info: String, _ log: [UInt8]) throws -> String {
            let path = tempDirectory() + "/spec.gt3x"
            let z = try ZipWriter(path: path)
            try z.begin("info.txt")
            try z.write(Array(info.utf8))
            try z.begin("log.bin", method: .stored)
            try z.write(log)
            try z.close()
            return path
        }
        // ACTIVITY, a GT3X+ (NEO: 341 counts per g): Y X Z of three samples, the last nibble unused.
        let ts: UInt32 = 1_421_142_129  // the header example's timestamp, 2015-01-13 09:42:09
        let a = try zip(
            "Serial Number: NEO1C16110020\r\nSample Rate: 30\r\nStart Date: 635567389290000000\r\nTimeZone: 00:00:00\r\n",
            record(0x00, ts, [0x00, 0x60, 0x08, 0xEB, 0xD0, 0x07, 0x00, 0x9E, 0xBF, 0x00, 0x70, 0x08, 0xEB, 0xF0]))
        let (s1, _) = try replayAll(a)
        let counts1: [[Double]] = [[8, 6, -323], [9, 7, -321], [8, 7, -321]]
        let expected1 = counts1.map { $0.map { $0 / 341 } }
        #expect(s1.map { [$0.number("x"), $0.number("y"), $0.number("z")] } == expected1)
        let times1: [Double] = [0, 1, 2].map { Double(ts) + Double($0) / 30 }
        #expect(s1.map(\.timestamp) == times1)

        // ACTIVITY2 with the PARAMETERS example's ACCEL_SCALE (256) and SAMPLE_RATE (30) pairs.
        let parameters: [UInt8] = [
            0x00, 0x00, 0x37, 0x00, 0x00, 0x00, 0x40, 0x09, 0x01, 0x00, 0x0A, 0x00, 0x1E, 0x00, 0x00, 0x00,
        ]
        let b = try zip(
            "Serial Number: CLE2B12345678\r\nSample Rate: 30\r\nTimeZone: 00:00:00\r\n",
            // Stray zero bytes between records are allowed by the specification.
            record(0x15, ts, parameters) + [0, 0, 0]
                + record(0x1A, ts, [0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x30, 0x00, 0xCC, 0xFF, 0x42, 0x01]))
        let (s2, e2) = try replayAll(b)
        let expected2: [[Double]] = [[0, 0, 0], [48.0 / 256, -52.0 / 256, 322.0 / 256]]
        #expect(s2.map { [$0.number("x"), $0.number("y"), $0.number("z")] } == expected2)
        #expect(e2.notices.contains("256 counts per g, from the PARAMETERS record"))
    }
}
