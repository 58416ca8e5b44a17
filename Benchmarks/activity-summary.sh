#!/usr/bin/env bash
# Issue 26's speed benchmark: a 7-day, 100 Hz Axivity .cwa (60.48 M samples: nights, days of
# sitting, walking and vigorous bouts, two spans off the wrist, a known miscalibration, made
# by DAQTesting's WristActivity through `daq-bench activity-cwa`, cached) through the whole of
# pipelines/activity-summary.yaml with the release build, then actipy's processing of the same
# file (read, calibrate against gravity, detect non-wear, 5 s ENMO epochs), each timed as a
# whole process by GNU time after a warm read of the file. Target: DAQKit under 60 s and
# 200 MB peak RSS on this 2-core machine; GGIR documents 3–10 minutes and ~2 GB per file.
# Usage: Benchmarks/activity-summary.sh [DAYS=7] [PEERS="actipy"]
set -euo pipefail
cd "$(dirname "$0")/.."
days=${1:-7}
peers=${2:-actipy}
work=${WORK:-${TMPDIR:-/tmp}/daq-bench}
mkdir -p "$work"
input="$work/activity-${days}d.cwa"
command -v bc >/dev/null && [ -x /usr/bin/time ] || { echo "needs bc and GNU time: apt-get install -y bc time" >&2; exit 2; }
for p in $peers; do
    case "$p" in
    actipy) python3 -c 'import actipy' 2>/dev/null && command -v java >/dev/null || {
        echo "actipy is not installed: pip install actipy==3.8.3 and apt-get install -y default-jre-headless" >&2
        exit 2
    } ;;
    esac
done
swift build -c release --product daq >/dev/null
swift build -c release --product daq-bench >/dev/null
[ -f "$input" ] || .build/release/daq-bench activity-cwa "$input" "$days" 100
daq="$PWD/.build/release/daq"
samples=$(echo "$days * 8640000" | bc)

# actipy's chain on the same file; resample_hz=None keeps the device's samples, as DAQKit does.
cat > "$work/actipy_activity.py" <<'PY'
import sys
import actipy
data, info = actipy.read_device(sys.argv[1], lowpass_hz=None, calibrate_gravity=True,
                                detect_nonwear=True, resample_hz=None, verbose=False)
enmo = ((data[["x", "y", "z"]] ** 2).sum(axis=1) ** 0.5 - 1).clip(lower=0) * 1000
epochs = enmo.resample("5s").mean()
epochs.to_csv(sys.argv[2])
print(f"actipy: {len(data)} samples, {len(epochs)} epochs, calibration ok={info.get('CalibOK')}", file=sys.stderr)
PY

command_for() {
    case "$1" in
    daq) echo "env INPUT=$input OUTPUT=$2 $daq run pipelines/activity-summary.yaml --quiet --status never" ;;
    actipy) echo "python3 $work/actipy_activity.py $input $2/epochs.csv" ;;
    esac
}

echo "input: $input ($(du -m "$input" | cut -f1) MB, $samples samples)"
printf '%-8s %8s %8s %8s %10s %12s\n' program wall_s user_s sys_s rss_MiB samples/s
for p in daq $peers; do
    out="$work/out-activity-$p"
    rm -rf "$out"; mkdir -p "$out"; sync; cat "$input" > /dev/null
    if ! /usr/bin/time -o "$work/time.txt" -f "%e %U %S %M" $(command_for "$p" "$out") 2>"$work/err-$p.txt" >/dev/null; then
        echo "$p failed:" >&2; tail -5 "$work/err-$p.txt" >&2; exit 1
    fi
    read -r wall user sys rss < "$work/time.txt"
    printf '%-8s %8s %8s %8s %10.1f %12.0f\n' "$p" "$wall" "$user" "$sys" "$(echo "$rss/1024" | bc -l)" "$(echo "$samples/$wall" | bc -l)"
done
echo "GGIR (documented): 3-10 min per 7-day file, ~2 GB per process"
# What each found: the daily table and the calibration fit, for a look beside actipy's.
cat "$work/out-activity-daq/daily.csv"
grep -h -o '"cal" *: *{[^}]*}' "$work"/out-activity-daq/*/manifest.json || true
grep -h '^actipy:' "$work/err-actipy.txt" 2>/dev/null || true
