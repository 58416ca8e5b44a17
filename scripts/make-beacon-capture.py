#!/usr/bin/env python3
"""Writes recordings/beacons.btsnoop: 60 s of LE advertising as `btmon -w` would record it
(btsnoop, H4), from four modules: an iBeacon that also sends Eddystone-TLM, an Eddystone-UID
beacon, a Ruuvi tag (RAWv2, moving), and a weak far-away beacon. Deterministic (seeded)."""
import math, random, struct, sys

EPOCH = 0x00DCDDB30F2F8000
rng = random.Random(7)
start = 1763800000.0

def ad(*structs):
    out = b""
    for t, body in structs:
        out += bytes([len(body) + 1, t]) + body
    return out

flags = (0x01, b"\x06")
ibeacon = ad(flags, (0xFF, bytes.fromhex("4C000215E2C56DB5DFFB48D2B060D0F5A71096E000010002C5")))
def tlm(i):
    return ad(flags, (0x03, bytes.fromhex("AAFE")), (0x16, bytes.fromhex("AAFE2000") + struct.pack(">HhII", 2950, int(22.5 * 256), 1000 + i, 36000 + i)))
uid = ad(flags, (0x03, bytes.fromhex("AAFE")), (0x16, bytes.fromhex("AAFE00E7EDD1EBEAC04E5DEFA0170BDB87539B670000")))
def ruuvi(i, t):
    ax, ay, az = int(200 * math.sin(t)), int(100 * math.cos(t)), 1000 + int(50 * math.sin(3 * t))
    body = bytes([0x05]) + struct.pack(">hHHhhhHBH", int(21.0 / 0.005), int(45.0 / 0.0025), 101325 - 50000, ax, ay, az, ((2900 - 1600) << 5) | 22, i % 255, i) + bytes.fromhex("CBB8334C884F")
    return ad(flags, (0xFF, bytes.fromhex("9904") + body))
far = ad(flags, (0x09, b"Far Away"), (0xFF, bytes.fromhex("4C000215E2C56DB5DFFB48D2B060D0F5A71096E000030004C5")))

modules = [  # address (MSB first), period s, rssi mean, payload function
    ("C0:11:22:33:44:55", 0.5, -62, lambda i, t: ibeacon if i % 4 else tlm(i)),
    ("D1:22:33:44:55:66", 1.0, -70, lambda i, t: uid),
    ("CB:B8:33:4C:88:4F", 0.25, -75, ruuvi),
    ("E5:00:00:00:00:01", 2.0, -96, lambda i, t: far),
]

events = []
for address, period, rssi, payload in modules:
    addr = bytes.fromhex(address.replace(":", ""))[::-1]
    t, i = rng.uniform(0, period), 0
    while t < 60:
        data = payload(i, t)
        r = max(-127, min(-20, int(rssi + rng.gauss(0, 3))))
        params = bytes([0x02, 1, 0x03 if "Far" not in str(data) else 0x00, 0x01]) + addr + bytes([len(data)]) + data + struct.pack("b", r)
        events.append((start + t, bytes([0x3E, len(params)]) + params))
        t += period + rng.uniform(-0.01, 0.01)
        i += 1
events.sort(key=lambda e: e[0])

out = b"btsnoop\0" + struct.pack(">II", 1, 1002)
for t, e in events:
    packet = b"\x04" + e
    micros = int(round(t * 1e6)) + EPOCH
    out += struct.pack(">IIIIq", len(packet), len(packet), 3, 0, micros) + packet
path = sys.argv[1] if len(sys.argv) > 1 else "recordings/beacons.btsnoop"
open(path, "wb").write(out)
print(f"{path}: {len(events)} reports, {len(out)} bytes")
