#!/usr/bin/env bash
# The parquet sink beside pyarrow: 1 M rows (or $1) per codec, rows/s and file sizes.
# Needs python3 with pandas and pyarrow (scripts/test.sh installs pyarrow).
set -euo pipefail
cd "$(dirname "$0")/parquet"
rows=${1:-1000000}
swift build -c release --product parquet-bench >/dev/null
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
for codec in zstd gzip none; do
    .build/release/parquet-bench "$rows" "$out/daq-$codec" "$codec"
    echo "  $(stat -c %s "$out"/daq-"$codec"/*/acc.parquet) bytes"
    python3 pyarrow-peer.py "$rows" "$out/pyarrow-$codec.parquet" "$codec"
done
