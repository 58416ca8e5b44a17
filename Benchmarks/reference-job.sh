#!/usr/bin/env bash
# The reference job of ../shared/bench/JOB.md, DAQKit beside the peers, interleaved round by
# round as the shared bench does it: the input is read once before each run (warm cache), the
# previous output removed and `sync` run outside the timed region; wall time, CPU and peak RSS
# come from GNU time. The first output of each program is checked against the reference.
# Usage: Benchmarks/reference-job.sh [ROWS=10000000] [ROUNDS=3] [PEERS="c-limit pandas miller stdlib"]
set -euo pipefail
cd "$(dirname "$0")/.."
rows=${1:-10000000}
rounds=${2:-3}
peers=${3:-"c-limit pandas miller stdlib"}
shared=${SHARED:-../shared}
work=${WORK:-${TMPDIR:-/tmp}/daq-bench}
mkdir -p "$work"
input="$work/accel-$rows.csv"
ref="$work/ref-$rows.csv"
[ -f "$input" ] || python3 "$shared/bench/gen-accel.py" --rows "$rows" --seed 1 --out "$input"
[ -f "$ref" ] || python3 "$shared/bench/peers/stdlib_job.py" "$input" "$ref"
[ -x "$work/accel_job" ] || gcc -O2 -o "$work/accel_job" "$shared/bench/peers/c/accel_job.c" -lm
# A missing peer would otherwise time a failing command; say what to install instead.
for p in $peers; do
    case "$p" in
    pandas) python3 -c 'import pandas' 2>/dev/null || { echo "pandas is not installed: pip install pandas" >&2; exit 2; } ;;
    miller) command -v mlr >/dev/null || { echo "Miller is not installed: apt-get install -y miller" >&2; exit 2; } ;;
    esac
done
command -v bc >/dev/null && [ -x /usr/bin/time ] || { echo "needs bc and GNU time: apt-get install -y bc time" >&2; exit 2; }
swift build -c release --product daq >/dev/null
daq="$PWD/.build/release/daq"

command_for() {
    case "$1" in
    daq) echo "env INPUT=$input OUTPUT=$2 $daq run pipelines/reference-job.yaml --quiet --status never" ;;
    c-limit) echo "$work/accel_job --fastparse $input $2" ;;
    c-fast) echo "$work/accel_job $input $2" ;;
    pandas) echo "python3 $shared/bench/peers/pandas_job.py $input $2" ;;
    miller) echo "sh $shared/bench/peers/miller_job.sh $input $2" ;;
    stdlib) echo "python3 $shared/bench/peers/stdlib_job.py $input $2" ;;
    esac
}

printf '%-8s %5s %8s %8s %8s %10s %12s\n' program round wall_s user_s sys_s rss_MiB samples/s
for round in $(seq 1 "$rounds"); do
    for p in daq $peers; do
        out="$work/out-$p.csv"
        rm -f "$out"; sync; cat "$input" > /dev/null
        if ! /usr/bin/time -o "$work/time.txt" -f "%e %U %S %M" $(command_for "$p" "$out") 2>"$work/err-$p.txt" >/dev/null; then
            echo "$p failed in round $round:" >&2; tail -5 "$work/err-$p.txt" >&2; exit 1
        fi
        read -r wall user sys rss < "$work/time.txt"
        printf '%-8s %5s %8s %8s %8s %10.1f %12.0f\n' "$p" "$round" "$wall" "$user" "$sys" "$(echo "$rss/1024" | bc -l)" "$(echo "$rows/$wall" | bc -l)"
        if [ "$round" = 1 ]; then python3 "$shared/bench/check-output.py" "$out" "$ref" | sed "s/^/  $p: /"; fi
    done
done
