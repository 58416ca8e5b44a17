#!/usr/bin/env python3
"""Checks what pipelines/pt100-ramp.yaml wrote: one row per reading of the recording (121),
each temperature on the recorded ramp (-10 °C + 1 °C/s) within 0.0001 °C, the one overflow
with a null temperature, and the step each row was taken in. Exits 1 naming the first problem.

    python3 scripts/check-ramp.py out/pt100-ramp.jsonl
"""
import json
import sys


def fail(message):
    print("check-ramp: " + message, file=sys.stderr)
    sys.exit(1)


rows = [json.loads(line) for line in open(sys.argv[1], encoding="utf-8")]
if len(rows) != 121:
    fail("expected 121 rows, found %d" % len(rows))
overflows = [r for r in rows if r["overflow"]]
if len(overflows) != 1 or overflows[0]["temperature"] is not None or overflows[0]["uptime"] != 35:
    fail("expected one overflow at 35 s with a null temperature, found %r" % overflows)
for r in rows:
    if r["overflow"]:
        continue
    expected = -10 + r["uptime"]
    if abs(r["temperature"] - expected) > 1e-4:
        fail("at %s s: temperature %s, expected %s" % (r["uptime"], r["temperature"], expected))
    step = "cooling-bath" if r["uptime"] < 10 else "warming"
    if r.get("stepPath") != step:
        fail("at %s s: step %r, expected %r" % (r["uptime"], r.get("stepPath"), step))
print("check-ramp: %d rows, temperatures on the ramp, 1 overflow" % len(rows))
