#!/usr/bin/env python3
"""An exec transform for daq: adds `magnitude` = sqrt(x² + y² + z²) to every sample that has
x, y and z, scaled by `scale` from the component's `config` (default 1).

The protocol (docs/exec-protocol.md): the first line is daq's hello; then samples, one JSON
object per line, each batch closed by {"daq":"batch","batch":N}; answer a batch with
{"daq":"ack","batch":N} after writing its output. Only the standard library is used.
"""
import json
import math
import sys


def main():
    hello = json.loads(sys.stdin.readline())
    scale = float((hello.get("config") or {}).get("scale", 1))
    out = sys.stdout
    for line in sys.stdin:
        sample = json.loads(line)
        if sample.get("daq") == "batch":
            out.write('{"daq":"ack","batch":%d}\n' % sample["batch"])
            out.flush()
            continue
        x, y, z = sample.get("x"), sample.get("y"), sample.get("z")
        if isinstance(x, (int, float)) and isinstance(y, (int, float)) and isinstance(z, (int, float)):
            sample["magnitude"] = scale * math.sqrt(x * x + y * y + z * z)
        out.write(json.dumps(sample, separators=(",", ":")))
        out.write("\n")


if __name__ == "__main__":
    main()
