#!/usr/bin/env bash
# The cost of the live view (issue 36): the reference job (../shared/bench/JOB.md) plain and with
# `--view` and a headless Chromium showing the page, interleaved round by round; the outputs are
# compared byte for byte. Wall time of the whole `daq run` process.
#   launched: each round starts its own browser once the view's URL is printed, so the browser's
#             launch (several processes, a second or more of CPU) competes with the run;
#   open:     one browser, opened in a warm-up round, stays open on the view's address and its
#             page follows each new run there, as a page a user leaves open does.
# Target: viewed / plain <= 1.05.
# Usage: Benchmarks/view.sh [ROWS=10000000] [ROUNDS=5]
set -euo pipefail
cd "$(dirname "$0")/.."
rows=${1:-10000000}
rounds=${2:-5}
shared=${SHARED:-../shared}
work=${WORK:-${TMPDIR:-/tmp}/daq-bench}
port=${VIEW_PORT:-18473}
mkdir -p "$work"
input="$work/accel-$rows.csv"
[ -f "$input" ] || python3 "$shared/bench/gen-accel.py" --rows "$rows" --seed 1 --out "$input"
command -v chromium >/dev/null || { echo "needs chromium: apt-get install -y chromium" >&2; exit 2; }
command -v bc >/dev/null || { echo "needs bc: apt-get install -y bc" >&2; exit 2; }
swift build -c release --product daq >/dev/null
daq="$PWD/.build/release/daq"

now() { date +%s.%N; }
browse() {
    chromium --headless --no-sandbox --disable-gpu --user-data-dir="$work/chromium-$1" "$2" >/dev/null 2>&1 &
    echo $!
}

plain() {
    INPUT=$input OUTPUT=$work/out-plain.csv "$daq" run pipelines/reference-job.yaml --quiet --status never
}

# A run with the view on `$1`; with `launch`, a browser of its own once the URL is printed.
viewed() {
    local address=$1 launch=$2 output=$3 err="$work/viewed.err"
    INPUT=$input OUTPUT=$output "$daq" run pipelines/reference-job.yaml --quiet --status never \
        --view "$address" 2>"$err" &
    local run=$!
    local browser=""
    if [ "$launch" = launch ]; then
        until grep -q "daq: view: " "$err" 2>/dev/null || ! kill -0 $run 2>/dev/null; do :; done
        local url; url=$(grep -o 'http://[^ ]*' "$err" || true)
        [ -n "$url" ] && browser=$(browse launched "$url")
    fi
    wait $run
    [ -n "$browser" ] && kill "$browser" 2>/dev/null && wait "$browser" 2>/dev/null || true
}
launched() { viewed 127.0.0.1:0 launch "$work/out-launched.csv"; }
open() { viewed "127.0.0.1:$port" none "$work/out-open.csv"; }

# The page left open: a warm-up run on the port, its browser kept for every `open` round.
INPUT=$input OUTPUT=$work/out-warm.csv "$daq" run pipelines/reference-job.yaml --quiet --status never \
    --view "127.0.0.1:$port" 2>"$work/warm.err" &
warm=$!
until grep -q "daq: view: " "$work/warm.err" 2>/dev/null || ! kill -0 $warm 2>/dev/null; do :; done
kept=$(browse open "http://127.0.0.1:$port/")
trap 'kill $kept 2>/dev/null || true' EXIT
wait $warm

printf '%-9s %5s %8s\n' variant round wall_s
declare -a P L O
for round in $(seq 1 "$rounds"); do
    for v in plain launched open; do
        rm -f "$work/out-$v.csv"; sync; cat "$input" >/dev/null
        t0=$(now)
        $v
        wall=$(echo "$(now) - $t0" | bc -l)
        printf '%-9s %5s %8.3f\n' "$v" "$round" "$wall"
        case $v in plain) P+=("$wall") ;; launched) L+=("$wall") ;; open) O+=("$wall") ;; esac
    done
    for v in launched open; do
        cmp -s "$work/out-plain.csv" "$work/out-$v.csv" || { echo "round $round: $v output differs" >&2; exit 1; }
    done
done
median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
mp=$(median "${P[@]}"); ml=$(median "${L[@]}"); mo=$(median "${O[@]}")
printf 'median plain %.3f s; with the view and a browser launched per run %.3f s (ratio %.3f); ' \
    "$mp" "$ml" "$(echo "$ml/$mp" | bc -l)"
printf 'with a page left open %.3f s (ratio %.3f; target <= 1.05); outputs identical\n' \
    "$mo" "$(echo "$mo/$mp" | bc -l)"
