#!/usr/bin/env bash
# The cost of the live view (issue 36): the reference job (../shared/bench/JOB.md) plain, and
# again with `--view 127.0.0.1:0` and a headless Chromium showing the page, interleaved round by
# round; the outputs of both are compared byte for byte. Wall time of the whole process.
# Target: viewed / plain <= 1.05.
# Usage: Benchmarks/view.sh [ROWS=10000000] [ROUNDS=5]
set -euo pipefail
cd "$(dirname "$0")/.."
rows=${1:-10000000}
rounds=${2:-5}
shared=${SHARED:-../shared}
work=${WORK:-${TMPDIR:-/tmp}/daq-bench}
mkdir -p "$work"
input="$work/accel-$rows.csv"
[ -f "$input" ] || python3 "$shared/bench/gen-accel.py" --rows "$rows" --seed 1 --out "$input"
command -v chromium >/dev/null || { echo "needs chromium: apt-get install -y chromium" >&2; exit 2; }
command -v bc >/dev/null || { echo "needs bc: apt-get install -y bc" >&2; exit 2; }
swift build -c release --product daq >/dev/null
daq="$PWD/.build/release/daq"

now() { date +%s.%N; }

plain() {
    INPUT=$input OUTPUT=$work/out-plain.csv "$daq" run pipelines/reference-job.yaml --quiet --status never
}

viewed() {
    local err="$work/viewed.err"
    INPUT=$input OUTPUT=$work/out-viewed.csv "$daq" run pipelines/reference-job.yaml --quiet --status never \
        --view 127.0.0.1:0 2>"$err" &
    local run=$!
    until grep -q "daq: view: " "$err" 2>/dev/null || ! kill -0 $run 2>/dev/null; do :; done
    local url; url=$(grep -o 'http://[^ ]*' "$err" || true)
    local browser=""
    if [ -n "$url" ]; then
        chromium --headless --no-sandbox --disable-gpu --user-data-dir="$work/chromium-profile" "$url" \
            >/dev/null 2>&1 &
        browser=$!
    fi
    wait $run
    [ -n "$browser" ] && kill "$browser" 2>/dev/null && wait "$browser" 2>/dev/null || true
}

printf '%-7s %5s %8s\n' variant round wall_s
declare -a P V
for round in $(seq 1 "$rounds"); do
    for v in plain viewed; do
        rm -f "$work/out-$v.csv"; sync; cat "$input" >/dev/null
        t0=$(now)
        $v
        wall=$(echo "$(now) - $t0" | bc -l)
        printf '%-7s %5s %8.3f\n' "$v" "$round" "$wall"
        [ $v = plain ] && P+=("$wall")
        [ $v = viewed ] && V+=("$wall")
    done
    cmp -s "$work/out-plain.csv" "$work/out-viewed.csv" || { echo "round $round: outputs differ" >&2; exit 1; }
done
median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
mp=$(median "${P[@]}"); mv=$(median "${V[@]}")
printf 'median plain %.3f s, with the view and a page %.3f s: ratio %.3f (target <= 1.05); outputs identical\n' \
    "$mp" "$mv" "$(echo "$mv/$mp" | bc -l)"
