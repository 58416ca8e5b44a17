#!/usr/bin/env bash
# Fuzzes the BLE decoder, HCI report parser and capture readers with libFuzzer, starting from
# the shipped capture: for ${FUZZ_SECONDS:-60} seconds, or, with FUZZ_RUNS=N, for exactly N
# inputs from a fixed seed (what the test command does, so CI is repeatable). Exits non-zero
# on a crash, leaking or runaway input, leaving it under .build-fuzz/crashes/; replay it with
#   swift run ble-fuzz .build-fuzz/crashes/FILE
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${FUZZ_SECONDS:-60}
scratch=.build-fuzz
swift build --scratch-path "$scratch" --product ble-fuzz \
    -Xswiftc -sanitize=fuzzer,address -Xswiftc -DFUZZING -Xswiftc -use-ld=lld
corpus="$scratch/corpus"
mkdir -p "$corpus" "$scratch/crashes"
cp recordings/beacons.btsnoop "$corpus/" 2>/dev/null || true
head -c 400 recordings/beacons.btsnoop > "$corpus/head.btsnoop"
if [ -n "${FUZZ_RUNS:-}" ]; then
    limit=(-runs="$FUZZ_RUNS" -seed=1)
else
    limit=(-max_total_time="$seconds" -seed="${FUZZ_SEED:-1}")
fi
"$scratch/debug/ble-fuzz" "${limit[@]}" -max_len=4096 -rss_limit_mb=2048 \
    -artifact_prefix="$scratch/crashes/" -print_final_stats=1 "$corpus"
