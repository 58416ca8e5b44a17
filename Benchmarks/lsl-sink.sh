#!/usr/bin/env bash
# Issue 35's load check for the lsl sink (not a timed test): DAQKit's `lsl` outlet holds 1,000
# samples/s of 64 channels for 60 s with nothing dropped, measured beside a pylsl outlet pushing
# the same in the same run. A CSV of 60,000 rows × 64 channels (channel 1 is the row number) is
# replayed at its rate (clock: replay, file source at 1000 Hz) into the `lsl` sink; a pylsl outlet
# pushes the same values at the same rate (what is due every millisecond, as a chunk); a pylsl
# inlet on each counts what arrives and checks the row numbers are contiguous. Reported: samples
# pushed and received, rows missing, CPU time (user + system) and peak RSS of each publisher.
#
# Everything runs inside a network namespace of its own (unshare -n, loopback only, LSL told
# to stay on this machine): no LSL packet leaves the machine. Needs root (unshare), pylsl
# (scripts/test.sh installs it) and GNU time.
# Usage: Benchmarks/lsl-sink.sh [SECONDS=60] [CHANNELS=64] [RATE=1000]   (BUILD=debug to skip the release build)
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
channels=${2:-64}
rate=${3:-1000}
build=${BUILD:-release}
[ -x /usr/bin/time ] || { echo "needs GNU time: apt-get install -y time" >&2; exit 2; }
python3 -c 'import pylsl' 2>/dev/null || { echo "needs pylsl: pip install pylsl==1.18.6" >&2; exit 2; }

if [ -z "${DAQ_LSL_NETNS:-}" ]; then
    if [ "$build" = release ]; then swift build -c release --product daq >/dev/null; fi
    # Into a namespace of our own, then on from the top.
    exec unshare -n env DAQ_LSL_NETNS=1 "$0" "$@"
fi
ip link set lo up
ip link set lo multicast on
ip route add 224.0.0.0/4 dev lo

work=$(mktemp -d "${TMPDIR:-/tmp}/daq-lsl-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT
printf '[lab]\nKnownPeers = {127.0.0.1}\n[multicast]\nResolveScope = machine\n' >"$work/lsl_api.cfg"
export LSLAPICFG="$work/lsl_api.cfg"
export LSL_LIB
LSL_LIB=$(python3 -c 'import pylsl,os; print(os.path.join(os.path.dirname(pylsl.__file__), "lib", "liblsl.so"))')
daq="$PWD/.build/$build/daq"
rows=$((seconds * rate))

python3 - "$work/bench.csv" "$rows" "$channels" <<'EOF'
import sys
path, rows, channels = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
with open(path, "w") as f:
    f.write(",".join("c%d" % (c + 1) for c in range(channels)) + "\n")
    rest = ",".join("%d.5" % c for c in range(1, channels))
    for i in range(rows):
        f.write("%d,%s\n" % (i, rest))
EOF

cat >"$work/bench.yaml" <<EOF
name: lsl-bench
clock: replay
sources:
  rows: { type: file, path: $work/bench.csv, rate: $rate }
sinks:
  out: { type: lsl, inputs: [rows], name: bench.daq, channel_format: float32, wait_for_consumers: 60 }
EOF

cat >"$work/count.py" <<'EOF'
import json, sys, time
import pylsl
name, expected, names = sys.argv[1], int(sys.argv[2]), sys.argv[1:2] + sys.argv[3:]
inlets = []
for n in names:
    found = pylsl.resolve_byprop("name", n, 1, 30)
    if not found:
        sys.exit("no stream " + n)
    inlet = pylsl.StreamInlet(found[0], max_buflen=360)
    inlet.open_stream(30)
    inlets.append(inlet)
print("connected", flush=True)
received, missing, last, idle_since = 0, 0, -1, None
while True:
    chunk, _ = inlets[0].pull_chunk(timeout=0.1, max_samples=4096)
    for other in inlets[1:]:
        other.pull_chunk(timeout=0.0)
    for row in chunk:
        seq = int(row[0])
        missing += max(0, seq - last - 1)
        last = seq
    received += len(chunk)
    if chunk:
        idle_since = None
    elif received:
        idle_since = idle_since or time.time()
        if time.time() - idle_since > 3 or received >= expected:
            break
print(json.dumps({"received": received, "missing": missing + max(0, expected - 1 - last)}), flush=True)
EOF

cat >"$work/outlet.py" <<'EOF'
import sys, time
import pylsl
name, rows, channels, rate = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4])
info = pylsl.StreamInfo(name, "", channels, rate, "float32", name)
outlet = pylsl.StreamOutlet(info)
if not outlet.wait_for_consumers(60):
    sys.exit(2)
rest = [c + 0.5 for c in range(1, channels)]
start, sent = pylsl.local_clock(), 0
while sent < rows:
    due = min(rows, int((pylsl.local_clock() - start) * rate) + 1)
    if due > sent:
        outlet.push_chunk([[float(i)] + rest for i in range(sent, due)], start + (due - 1) / rate)
        sent = due
    else:
        time.sleep(0.001)
print("pushed %d" % sent, flush=True)
EOF

echo "lsl sink benchmark: $rows samples × $channels channels at $rate Hz ($seconds s), $build build" >&2
python3 "$work/count.py" bench.daq "$rows" bench.daq.markers >"$work/daq-count.txt" &
counter_daq=$!
python3 "$work/count.py" bench.pylsl "$rows" >"$work/pylsl-count.txt" &
counter_pylsl=$!
/usr/bin/time -f "%U %S %M" -o "$work/daq-time.txt" "$daq" run "$work/bench.yaml" --status never --no-control \
    2>"$work/daq-err.txt" &
daq_pid=$!
/usr/bin/time -f "%U %S %M" -o "$work/pylsl-time.txt" python3 "$work/outlet.py" bench.pylsl "$rows" "$channels" "$rate" \
    >/dev/null &
pylsl_pid=$!
wait "$daq_pid" || { cat "$work/daq-err.txt" >&2; exit 1; }
wait "$pylsl_pid"
wait "$counter_daq" "$counter_pylsl"

report() {
    local who=$1 count=$2 time=$3
    read -r user sys rss <"$time"
    python3 - "$who" "$count" "$user" "$sys" "$rss" "$rows" <<'EOF'
import json, sys
who, count, user, sys_, rss, rows = sys.argv[1:7]
c = json.loads(open(count).read().strip().splitlines()[-1])
print("%-6s pushed %s  received %d  missing %d  cpu %.2f s (user %s + sys %s)  peak rss %.0f MB"
      % (who, rows, c["received"], c["missing"], float(user) + float(sys_), user, sys_, int(rss) / 1024))
EOF
}
report daq "$work/daq-count.txt" "$work/daq-time.txt"
report pylsl "$work/pylsl-count.txt" "$work/pylsl-time.txt"
grep -E "dropped|sent|out " "$work/daq-err.txt" >&2 || true
