"""Decodes BLE advertising data with readers others wrote: beacontools (iBeacon, Eddystone) and
ruuvitag-sensor (Ruuvi RAWv2), both from PyPI.

Reads one JSON string per line on standard input, the advertising data (AD structures) of one
report in hex, and writes one JSON object per line: the frame kinds found, and their fields named
and scaled as DAQKit's `ble.replay` names them, so the test compares values one to one. Where a
reader's units differ, the conversion is here and says why.
Used by Tests/DAQBLETests/OutsideDecoderTests.swift.
"""
import json
import sys

from beacontools import parse_packet
from beacontools.packet_types import (
    EddystoneEIDFrame,
    EddystoneEncryptedTLMFrame,
    EddystoneTLMFrame,
    EddystoneUIDFrame,
    EddystoneURLFrame,
    IBeaconAdvertisement,
)
from ruuvitag_sensor.data_formats import DataFormats
from ruuvitag_sensor.decoder import get_decoder


def beacon(data):
    frame = parse_packet(data)
    if isinstance(frame, IBeaconAdvertisement):
        return "ibeacon", {
            "ibeacon.uuid": frame.uuid.upper(),
            "ibeacon.major": frame.major,
            "ibeacon.minor": frame.minor,
            "ibeacon.measured_power": frame.tx_power,
        }
    if isinstance(frame, EddystoneUIDFrame):
        return "eddystone.uid", {
            "eddystone.namespace": frame.namespace.upper(),
            "eddystone.instance": frame.instance.upper(),
            "eddystone.ranging_data": frame.tx_power,
        }
    if isinstance(frame, EddystoneURLFrame):
        # The URL and EID frames' byte is the TX power at 0 m, the UID frame's the same byte
        # under the specification's other name: DAQKit keeps the two names apart.
        return "eddystone.url", {"eddystone.url": frame.url, "eddystone.tx_power": frame.tx_power}
    if isinstance(frame, EddystoneTLMFrame):
        # beacontools reads the 8.8 fixed-point temperature as unsigned; the TLM specification
        # makes it signed, and 0x8000 (128 read unsigned) "not supported". Battery 0 is
        # "not supported" too.
        t = frame.temperature
        return "eddystone.tlm", {
            "eddystone.tlm.battery_mv": frame.voltage or None,
            "eddystone.tlm.temperature": None if t == 128 else t - 256 if t > 128 else t,
            "eddystone.tlm.adv_count": frame.advertising_count,
            # beacontools hands on the frame's count of tenths of a second under this name.
            "eddystone.tlm.uptime_s": frame.seconds_since_boot / 10,
        }
    if isinstance(frame, EddystoneEncryptedTLMFrame):
        return "eddystone.tlm", {"eddystone.tlm.encrypted": True}
    if isinstance(frame, EddystoneEIDFrame):
        return "eddystone.eid", {"eddystone.eid": frame.eid.hex().upper(), "eddystone.tx_power": frame.tx_power}
    return None, {}


def ruuvi(data):
    # ruuvitag-sensor takes a report's data with its length byte in front, as HCI carries it.
    form, payload = DataFormats.convert_data("%02X" % len(data) + data.hex().upper())
    if form != 5:
        return None, {}
    d = get_decoder(form).decode_data(payload)
    # The specification's "not available" values, which ruuvitag-sensor 4.1.0 passes on as
    # numbers for these three fields (and as None for the others): null, as DAQKit gives them.
    counter = None if d["movement_counter"] == 255 else d["movement_counter"]
    sequence = None if d["measurement_sequence_number"] == 65535 else d["measurement_sequence_number"]
    mac = None if d["mac"] in (None, "ffffffffffff") else ":".join(d["mac"][i : i + 2] for i in range(0, 12, 2)).upper()
    return "ruuvi.rawv2", {
        "ruuvi.temperature": d["temperature"],
        "ruuvi.humidity": d["humidity"],
        # hPa with two decimals there; pascals here, as the frame carries them.
        "ruuvi.pressure": None if d["pressure"] is None else round(d["pressure"] * 100),
        "ruuvi.acceleration_x": d["acceleration_x"],
        "ruuvi.acceleration_y": d["acceleration_y"],
        "ruuvi.acceleration_z": d["acceleration_z"],
        "ruuvi.battery_mv": d["battery"],
        "ruuvi.tx_power": d["tx_power"],
        "ruuvi.movement_counter": counter,
        "ruuvi.sequence": sequence,
        "ruuvi.mac": mac,
    }


for line in sys.stdin:
    data = bytes.fromhex(json.loads(line))
    kinds, fields = [], {}
    for decode in (beacon, ruuvi):
        kind, found = decode(data)
        if kind:
            kinds.append(kind)
            fields.update(found)
    print(json.dumps({"kinds": kinds, "fields": fields}))
