#!/usr/bin/env bash
# Engine benchmarks (release build), as reported in the closing notes:
#  1. throughput: generator → filter → select → window → null on the virtual clock;
#  2. memory under backpressure: the same source against a sink slowed to ~1,000 samples/s
#     (a reader on the other end of a pipe that takes one line per millisecond), `block` policy.
# Usage: Benchmarks/engine.sh [COUNT] [SLOW_SECONDS]
set -euo pipefail
cd "$(dirname "$0")/.."
count=${1:-10000000}
slow_seconds=${2:-60}
swift build -c release --product daq >/dev/null
daq=.build/release/daq

echo "== throughput: $count samples"
COUNT=$count /usr/bin/time -f "peak RSS %M KiB, %e s wall, %U s user, %S s sys" "$daq" run pipelines/bench-engine.yaml

echo "== backpressure: sink slowed to ~1000 samples/s for ${slow_seconds}s, block policy"
cat > /tmp/daq-slow.yaml <<'YAML'
name: slow-sink
clock: virtual
sources:
  gen: {type: generator, signal: noise}
sinks:
  out:
    type: console
    format: json
    inputs: [gen]
    buffer: {size: 16384, when_full: block}
YAML
/usr/bin/time -f "daq peak RSS %M KiB" "$daq" run /tmp/daq-slow.yaml --quiet --status never 2>/tmp/daq-slow.time \
    | python3 -c '
import sys, time
end = time.monotonic() + float(sys.argv[1]); n = 0
for line in sys.stdin:
    n += 1
    time.sleep(0.001)
    if time.monotonic() >= end: break
print(f"reader took {n} lines in {sys.argv[1]} s ({n / float(sys.argv[1]):.0f}/s)")
' "$slow_seconds" || true
cat /tmp/daq-slow.time | grep -v "^$" | tail -2
