"""Counts what the sources of shipped pipelines emit, with readers other than DAQKit's.

    source-counts.py PIPELINE.yaml…  (environment: what the test gives the pipelines)

Prints {file: samples} as JSON. The YAML is read by PyYAML, `${VAR:-default}` taken from the
environment; each source's input is counted by a reader others wrote: Python's csv and json
modules, actfast (.cwa), pygt3x (.gt3x, idle sleep filled as ActiGraph fills it), tshark (BLE
reports of a capture), and an `exec` source's own program run as the pipeline runs it.
Used by Tests/DAQCLITests/PipelinesTests.swift.
"""
import csv
import json
import os
import re
import subprocess
import sys

import yaml


def expand(text):
    def value(m):
        name, default = m.group(1), m.group(3)
        return os.environ.get(name, default if default is not None else "")

    return re.sub(r"\$\{(\w+)(:-([^}]*))?\}", value, text)


def motion(path):
    if path.endswith(".csv"):
        with open(path, newline="") as f:
            return len(list(csv.reader(f))) - 1  # the header
    if path.endswith(".cwa"):
        import actfast

        return len(actfast.read(path)["timeseries"]["high_frequency"]["datetime"])
    if path.endswith(".gt3x"):
        from pygt3x.reader import FileReader

        with FileReader(path) as r:
            return len(r.to_pandas())
    raise SystemExit(f"no reader here for {path}")


def ble(path):
    out = subprocess.run(
        ["tshark", "-r", path, "-T", "fields", "-e", "bthci_evt.le_num_reports"],
        capture_output=True, text=True, check=True, timeout=120,
    ).stdout
    return sum(int(n) for line in out.split() for n in line.split(","))


def lines(path):
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip()]


def count(source):
    kind = source["type"]
    if kind == "motion.replay":
        return motion(source["path"])
    if kind == "ble.replay":
        return ble(source["path"])
    if kind == "barcode.replay":
        # Continuous mode (the default, and the only one counted here): every code is a session
        # of its own, scan.start, scan.data and scan.stop.
        assert "mode" not in source, source
        return 3 * sum(1 for record in lines(source["path"]) if "code" in record)
    if kind == "file":
        return len(lines(source["path"]))
    if kind == "generator":
        return int(source["count"])
    if kind == "exec":
        env = dict(os.environ, **{k: str(v) for k, v in source.get("env", {}).items()})
        out = subprocess.run(source["command"], env=env, capture_output=True, text=True, check=True, timeout=120)
        return sum(1 for line in out.stdout.split("\n") if line.strip())
    raise SystemExit(f"no counter here for a {kind} source")


counts = {}
for file in sys.argv[1:]:
    with open(file) as f:
        spec = yaml.safe_load(expand(f.read()))
    counts[os.path.basename(file)] = sum(count(s) for s in spec["sources"].values())
print(json.dumps(counts))
