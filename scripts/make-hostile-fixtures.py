#!/usr/bin/env python3
"""Writes the hostile .gt3x files of Tests/Fixtures/hostile/: a few hundred bytes each, every one
of which ended `daq inspect` and `daq run` with a trap (SIGILL) or a fill of gigabytes before
issue 39. The bytes are committed; run this again (python3 scripts/make-hostile-fixtures.py) only
to change them. Each is a stored zip of info.txt and log.bin as the GT3X-File-Format lays them out.
"""
import os
import struct
import sys
import zlib

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Tests", "Fixtures", "hostile")
T0 = 1_700_000_000  # device local time of the first record
TICKS_1970 = 621_355_968_000_000_000


def ticks(local_seconds):
    return str(TICKS_1970 + local_seconds * 10_000_000)


def info(rate="30", zone="00:00:00", last=T0 + 2):
    return (
        "Serial Number: MOS2E00000001\r\nDevice Type: wGT3XBT\r\nFirmware: 1.9.2\r\n"
        f"Sample Rate: {rate}\r\nStart Date: {ticks(T0)}\r\nStop Date: 0\r\n"
        f"Last Sample Time: {ticks(last)}\r\nTimeZone: {zone}\r\nAcceleration Scale: 256.0\r\n"
    ).encode()


def record(kind, timestamp, payload):
    r = bytes([0x1E, kind]) + struct.pack("<IH", timestamp, len(payload)) + payload
    x = 0
    for b in r:
        x ^= b
    return r + bytes([~x & 0xFF])


def second(timestamp, rate=30):
    """One ACTIVITY2 record: `rate` samples of int16 x, y, z."""
    return record(0x1A, timestamp, b"".join(struct.pack("<hhh", i, -i, 256) for i in range(rate)))


def log(*records):
    return b"".join(records)


def zip_members(members):
    """Stored members, then their central directory; returns (bytes before the end record,
    directory offset, directory size, count)."""
    body = b""
    directory = b""
    for name, data in members:
        name = name.encode()
        crc = zlib.crc32(data)
        offset = len(body)
        body += struct.pack("<IHHHHHIIIHH", 0x04034B50, 20, 0, 0, 0x6000, 0x5A21, crc, len(data), len(data), len(name), 0)
        body += name + data
        directory += struct.pack(
            "<IHHHHHHIIIHHHHHII", 0x02014B50, 20, 20, 0, 0, 0x6000, 0x5A21, crc, len(data), len(data), len(name), 0, 0,
            0, 0, 0, offset)
        directory += name
    return body + directory, len(body), len(directory), len(members)


def plain_zip(members):
    data, offset, size, count = zip_members(members)
    return data + struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, count, count, size, offset, 0)


def zip64(members, count=None, size=None, offset=None, locator=None):
    """A zip whose end record defers to a zip64 record; any of its numbers may be forged."""
    data, real_offset, real_size, real_count = zip_members(members)
    record_at = len(data)
    record = struct.pack(
        "<IQHHIIQQQQ", 0x06064B50, 44, 45, 45, 0, 0, real_count, real_count if count is None else count,
        real_size if size is None else size, real_offset if offset is None else offset)
    loc = struct.pack("<IIQI", 0x07064B50, 0, record_at if locator is None else locator, 1)
    end = struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, 0xFFFF, 0xFFFF, 0xFFFFFFFF, 0xFFFFFFFF, 0)
    return data + record + loc + end


def gt3x(info_text, log_bytes):
    return [("info.txt", info_text), ("log.bin", log_bytes)]


def main():
    os.makedirs(OUT, exist_ok=True)
    two = log(second(T0), second(T0 + 1))
    files = {
        # info.txt's Sample Rate reached Int() unchecked.
        "rate-inf.gt3x": plain_zip(gt3x(info(rate="inf"), two)),
        "rate-1e300.gt3x": plain_zip(gt3x(info(rate="1e300"), two)),
        # An hours part that overflows when multiplied by 3600.
        "zone-overflow.gt3x": plain_zip(gt3x(info(zone="9223372036854775807:00:00"), two)),
        # zip64 numbers that do not fit an Int, or overflow offset + size.
        "zip64-count.gt3x": zip64(gt3x(info(), two), count=2**64 - 1),
        "zip64-size.gt3x": zip64(gt3x(info(), two), size=2**63 - 1),
        "zip64-locator.gt3x": zip64(gt3x(info(), two), locator=2**64 - 1),
        # The second record 10^6 s after the first, with no idle-sleep record: filled, it came
        # out as 30 million samples; info.txt claims the span, so only the fill bound stops it.
        "fill-bomb.gt3x": plain_zip(gt3x(info(last=T0 + 1_000_001), log(second(T0), second(T0 + 1_000_000)))),
        # Asleep, then a record near 2^32 s: past any sleep and past info.txt's end.
        "fill-bomb-asleep.gt3x": plain_zip(
            gt3x(info(), log(second(T0), record(0x03, T0 + 1, b"\x08"), second(0xFFFF_FF00)))),
    }
    for name, data in files.items():
        with open(os.path.join(OUT, name), "wb") as f:
            f.write(data)
        print(f"{name}: {len(data)} bytes")


if __name__ == "__main__":
    sys.exit(main())
