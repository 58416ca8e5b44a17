"""Writes XDF test files from the XDF 1.0 specification (sccn/xdf wiki, "Specifications"),
independently of daq's writer and of pyxdf's reader, so each is checked against another's work.

usage: write_xdf.py OUT.xdf [--datetime ISO] [--no-footers] [--gzip] [--truncate] [--corrupt]

Streams (ids 1..5):
  1 EEG      float32, 3 channels Fz Cz Pz in microvolts, 100 Hz, drifting clock, an outlier offset;
             every 4th sample carries no time stamp (deduced from the rate).
  2 Accel    double64, 2 unlabelled channels, 50 Hz, a clock reset half way (its clock jumps 30 s).
  3 Counter  int16, 1 channel 'count', 10 Hz, a single clock offset.
  4 Markers  string, 1 channel, irregular, text with non-ASCII and XML-special characters.
  5 Empty    float32, 2 channels, no samples.
--truncate cuts the file inside its last Samples chunk (and writes no footers after it).
--corrupt writes 3 as the NumLengthBytes of a Samples chunk half way through the file: readers
report it and go on after the next Boundary chunk.
"""
import gzip
import random
import struct
import sys

BOUNDARY = bytes([0x43, 0xA5, 0x46, 0xDC, 0xCB, 0xF5, 0x41, 0x0F, 0xB3, 0x0E, 0xD5, 0x46, 0x73, 0x83, 0xCB, 0xE4])


def varlen(n, force8=False):
    if force8:
        return b"\x08" + struct.pack("<Q", n)
    if n < 256:
        return b"\x01" + struct.pack("<B", n)
    if n < 2**32:
        return b"\x04" + struct.pack("<I", n)
    return b"\x08" + struct.pack("<Q", n)


class Writer:
    def __init__(self):
        self.out = bytearray(b"XDF:")
        self.chunk_starts = []
        self.count = 0

    def chunk(self, tag, content, force8=False):
        self.chunk_starts.append((len(self.out), tag))
        self.count += 1
        self.out += varlen(len(content) + 2, force8) + struct.pack("<H", tag) + content

    def samples(self, sid, fmt, stamps, rows, omit=lambda k: False):
        body = bytearray(varlen(len(rows)))
        for k, (t, row) in enumerate(zip(stamps, rows)):
            if omit(k):
                body += b"\x00"
            else:
                body += b"\x08" + struct.pack("<d", t)
            if fmt == "string":
                for v in row:
                    raw = v.encode("utf-8")
                    body += varlen(len(raw)) + raw
            else:
                code = {"float32": "f", "double64": "d", "int16": "h"}[fmt]
                body += struct.pack("<%d%s" % (len(row), code), *row)
        self.chunk(3, struct.pack("<I", sid) + bytes(body), force8=(sid == 2))


def header(name, typ, count, rate, fmt, sid, channels=None):
    desc = ""
    if channels:
        desc = "<desc><channels>" + "".join(
            "<channel><label>%s</label><unit>%s</unit><type>EEG</type></channel>" % c for c in channels
        ) + "</channels></desc>"
    return (
        '<?xml version="1.0"?><info><name>%s</name><type>%s</type><channel_count>%d</channel_count>'
        "<nominal_srate>%s</nominal_srate><channel_format>%s</channel_format><source_id>src-%d</source_id>"
        "<hostname>lab-pc</hostname><created_at>%s</created_at>%s<uid>uid-%d</uid></info>"
        % (name, typ, count, rate, fmt, sid, 990.5, desc or "<desc/>", sid)
    ).encode()


def footer(first, last, count, offsets):
    offs = "".join("<offset><time>%r</time><value>%r</value></offset>" % o for o in offsets)
    return (
        '<?xml version="1.0"?><info><first_timestamp>%r</first_timestamp><last_timestamp>%r</last_timestamp>'
        "<sample_count>%d</sample_count><clock_offsets>%s</clock_offsets></info>" % (first, last, count, offs)
    ).encode()


def main():
    args = sys.argv[1:]
    path = args[0]
    when = args[args.index("--datetime") + 1] if "--datetime" in args else None
    footers = "--no-footers" not in args and "--truncate" not in args
    rnd = random.Random(7)
    w = Writer()
    info = '<?xml version="1.0"?><info><version>1.0</version>%s</info>' % (
        "<datetime>%s</datetime>" % when if when else ""
    )
    w.chunk(1, info.encode())
    w.chunk(2, struct.pack("<I", 1) + header("EEG", "EEG", 3, 100, "float32", 1,
                                             [("Fz", "microvolts"), ("Cz", "microvolts"), ("Pz", "microvolts")]))
    w.chunk(2, struct.pack("<I", 2) + header("Accel", "Motion", 2, 50, "double64", 2))
    w.chunk(2, struct.pack("<I", 3) + header("Counter", "Misc", 1, 10, "int16", 3,
                                             [("count", "")]))
    w.chunk(2, struct.pack("<I", 4) + header("Markers", "Markers", 1, 0, "string", 4))
    w.chunk(2, struct.pack("<I", 5) + header("Empty", "EEG", 2, 250, "float32", 5))

    # Each stream's clock: what its outlet stamps, and the offset to the recorder's clock.
    eeg = {"t": [], "v": [], "off": []}
    acc = {"t": [], "v": [], "off": []}
    cnt = {"t": [], "v": [], "off": []}
    mrk = {"t": [], "v": [], "off": []}
    recorder_start = 1000.0
    texts = ["start", "trial 1 <a&b>", "Übung ✓", "rest", "trial 2 \"q\"", "end"]
    for second in range(60):
        base = recorder_start + second
        # EEG: 100 Hz, clock 0.1 s behind and drifting 10 ppm.
        stamps, rows = [], []
        for k in range(100):
            r = base + k / 100.0
            t = r - (0.1 + 1e-5 * (r - recorder_start))
            stamps.append(round(t, 6))
            rows.append([struct.unpack("<f", struct.pack("<f", rnd.gauss(0, 50)))[0] for _ in range(3)])
        first = len(eeg["t"])
        # Samples without a time stamp are deduced as the previous one + 1/rate, which is what
        # a reader gives them: keep the expected stamps that way.
        for k in range(len(stamps)):
            if (first + k) % 4 == 3 and first + k > 0:
                prev = stamps[k - 1] if k > 0 else eeg["t"][-1]
                stamps[k] = prev + 1 / 100.0
        eeg["t"] += stamps
        eeg["v"] += rows
        w.samples(1, "float32", stamps, rows, omit=lambda k, first=first: (first + k) % 4 == 3 and first + k > 0)
        # Accel: 50 Hz, 0.05 s behind until its clock jumps 30 s ahead at recorder 1030 (20 s gap).
        if second < 30 or second >= 50:
            ahead = -0.05 if second < 30 else 30.0
            stamps = [base + k / 50.0 + ahead for k in range(50)]
            rows = [[rnd.uniform(-2, 2), rnd.uniform(-2, 2)] for _ in range(50)]
            acc["t"] += stamps
            acc["v"] += rows
            w.samples(2, "double64", stamps, rows)
        # Counter: 10 Hz, on the recorder's clock but 2 ms behind.
        stamps = [base + k / 10.0 - 0.002 for k in range(10)]
        rows = [[(second * 10 + k) % 30000 - 15000] for k in range(10)]
        cnt["t"] += stamps
        cnt["v"] += rows
        w.samples(3, "int16", stamps, rows)
        # Markers every 10 s.
        if second % 10 == 5:
            t = base + 0.25 - 0.3
            mrk["t"].append(t)
            mrk["v"].append([texts[second // 10]])
            w.samples(4, "string", [t], [[texts[second // 10]]])
        # Clock offsets every 5 s (collection time on the recorder's clock, value = recorder - outlet).
        if second % 5 == 0:
            r = base + 0.5
            value = 0.1 + 1e-5 * (r - recorder_start) + rnd.gauss(0, 2e-6)
            if second == 25:
                value += 0.01  # an outlier the robust fit must weigh down
            eeg["off"].append((r, value))
            w.chunk(4, struct.pack("<Idd", 1, r, value))
            if second < 30 or second >= 50:
                jitter = rnd.uniform(-0.01, 0.01)
                acc["off"].append((r + jitter, (0.05 if second < 30 else -30.0) + rnd.gauss(0, 1e-5)))
                w.chunk(4, struct.pack("<Idd", 2, *acc["off"][-1]))
            mrk["off"].append((r, 0.3 + rnd.gauss(0, 1e-6)))
            w.chunk(4, struct.pack("<Idd", 4, *mrk["off"][-1]))
            if second == 0:
                cnt["off"].append((r, 0.002))
                w.chunk(4, struct.pack("<Idd", 3, r, 0.002))
        if second % 10 == 9:
            w.chunk(5, BOUNDARY)
    if footers:
        for sid, s in [(1, eeg), (2, acc), (3, cnt), (4, mrk), (5, {"t": [], "v": [], "off": []})]:
            first = s["t"][0] if s["t"] else 0.0
            last = s["t"][-1] if s["t"] else 0.0
            w.chunk(6, struct.pack("<I", sid) + footer(first, last, len(s["t"]), s["off"]))
    data = bytes(w.out)
    samples = [i + 1 for i, c in enumerate(w.chunk_starts) if c[1] == 3]
    damaged = samples[-1]
    if "--truncate" in args:
        start, tag = [c for c in w.chunk_starts if c[1] == 3][-1]
        data = data[: start + 40]
    if "--corrupt" in args:
        damaged = samples[len(samples) // 2]
        start = w.chunk_starts[damaged - 1][0]
        data = data[:start] + b"\x03" + data[start + 1 :]
    if "--gzip" in args:
        with gzip.open(path, "wb") as f:
            f.write(data)
    else:
        with open(path, "wb") as f:
            f.write(data)
    # What the test needs to know about the file: its chunks and where the damaged chunk starts
    # (the last Samples chunk unless --corrupt).
    print("chunks %d damaged_chunk %d at %d" % (w.count, damaged, w.chunk_starts[damaged - 1][0]))


main()
