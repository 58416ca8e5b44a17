#!/usr/bin/env bash
# The cost of watching a run: the reference job (../shared/bench/JOB.md) plain, and again with
# the Prometheus endpoint on (scraped every second) and `daq tap '*'` attached to every
# component, interleaved round by round; the C peer runs in each round for scale.
# Usage: Benchmarks/observability.sh [ROWS=10000000] [ROUNDS=5]
set -euo pipefail
cd "$(dirname "$0")/.."
rows=${1:-10000000}
rounds=${2:-5}
shared=${SHARED:-../shared}
work=${WORK:-${TMPDIR:-/tmp}/daq-bench}
mkdir -p "$work"
input="$work/accel-$rows.csv"
[ -f "$input" ] || python3 "$shared/bench/gen-accel.py" --rows "$rows" --seed 1 --out "$input"
[ -x "$work/accel_job" ] || gcc -O2 -o "$work/accel_job" "$shared/bench/peers/c/accel_job.c" -lm
swift build -c release --product daq >/dev/null
daq="$PWD/.build/release/daq"
out="$work/out-observed.csv"

now() { date +%s.%N; }

plain() {
    INPUT=$input OUTPUT=$out "$daq" run pipelines/reference-job.yaml --quiet --status never
}

observed() {
    local err="$work/observed.err" tapped="$work/tapped.jsonl"
    INPUT=$input OUTPUT=$out "$daq" run pipelines/reference-job.yaml --quiet --status never --log-level info \
        --set metrics.prometheus.listen=127.0.0.1:0 2>"$err" &
    local run=$!
    until grep -q "control socket" "$err" 2>/dev/null || ! kill -0 $run 2>/dev/null; do :; done
    "$daq" tap $run '*' >"$tapped" 2>/dev/null &
    local tap=$!
    local url; url=$(grep -o 'http://[^ ]*/metrics' "$err" || true)
    ( while kill -0 $run 2>/dev/null; do curl -s "$url" >/dev/null 2>&1 || true; sleep 1; done ) &
    local scraper=$!
    wait $run
    wait $tap 2>/dev/null || true
    kill $scraper 2>/dev/null || true
    echo "$(wc -l <"$tapped") tapped lines" >&2
}

printf '%-9s %5s %8s\n' variant round wall_s
declare -a P O
for round in $(seq 1 "$rounds"); do
    for v in plain observed c-limit; do
        rm -f "$out"; sync; cat "$input" >/dev/null
        t0=$(now)
        case $v in
        plain) plain ;;
        observed) observed 2>>"$work/observed.log" ;;
        c-limit) "$work/accel_job" --fastparse "$input" "$out" ;;
        esac
        wall=$(echo "$(now) - $t0" | bc -l)
        printf '%-9s %5s %8.3f\n' "$v" "$round" "$wall"
        [ $v = plain ] && P+=("$wall")
        [ $v = observed ] && O+=("$wall")
    done
done
median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
mp=$(median "${P[@]}"); mo=$(median "${O[@]}")
printf 'median plain %.3f s, observed %.3f s: %+.1f%%\n' "$mp" "$mo" "$(echo "($mo/$mp - 1) * 100" | bc -l)"
