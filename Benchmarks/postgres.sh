#!/usr/bin/env bash
# The postgres sink beside `psql \copy`: the reference job's rows (../shared/bench/JOB.md:
# magnitude and its low-pass of an accelerometer CSV) written by `daq` into PostgreSQL, against
# psql loading the same rows from the CSV the reference job writes. Both into an ordinary table
# on a server this script starts on a Unix socket of its own (initdb in a temporary directory;
# as `nobody` when run as root, since PostgreSQL refuses root).
# Wall time from bash's clock; medians of ROUNDS.
# Usage: Benchmarks/postgres.sh [ROWS=10000000] [ROUNDS=3]   (DAQ_BIN=path: use that daq)
set -euo pipefail
cd "$(dirname "$0")/.."
rows=${1:-10000000}
rounds=${2:-3}
shared=${SHARED:-../shared}
work=${WORK:-${TMPDIR:-/tmp}/daq-bench}
mkdir -p "$work"
input="$work/accel-$rows.csv"
[ -f "$input" ] || python3 "$shared/bench/gen-accel.py" --rows "$rows" --seed 1 --out "$input"

pgbin() {
    command -v "$1" 2>/dev/null && return
    ls -d /usr/lib/postgresql/*/bin/"$1" 2>/dev/null | sort -V | tail -1
}
initdb=$(pgbin initdb); pg_ctl=$(pgbin pg_ctl)
[ -n "$initdb" ] && [ -n "$pg_ctl" ] && command -v psql >/dev/null || {
    echo "PostgreSQL is not installed: apt-get install -y postgresql" >&2; exit 2; }
# DAQ_BIN: another build of daq (a debug one, to try the script out; its figures mean nothing).
if [ -n "${DAQ_BIN:-}" ]; then
    daq=$DAQ_BIN
else
    swift build -c release --product daq >/dev/null
    daq="$PWD/.build/release/daq"
fi

# The server: its own cluster and socket, stopped and removed on exit.
pg=$(mktemp -d /tmp/daq-pg-bench-XXXXXX)
as=()
if [ "$(id -u)" = 0 ]; then chown nobody: "$pg"; as=(setpriv --reuid=65534 --regid=65534 --clear-groups --); fi
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
echo bench > "$pg/pw"; [ "$(id -u)" = 0 ] && chown nobody: "$pg/pw"
"${as[@]}" "$initdb" -D "$pg/data" -U daq --pwfile="$pg/pw" --auth=scram-sha-256 --no-locale -E UTF8 >/dev/null
"${as[@]}" "$pg_ctl" start -D "$pg/data" -w -t 60 -l "$pg/server.log" -o "-c listen_addresses='' -k $pg -p $port" >/dev/null
trap '"${as[@]}" "$pg_ctl" stop -D "$pg/data" -m fast -w >/dev/null; rm -rf "$pg"' EXIT
export PGPASSWORD=bench
sql() { psql -X -q -h "$pg" -p "$port" -U daq -d postgres -At -v ON_ERROR_STOP=1 "$@"; }

# The reference job with its file sink replaced by the postgres sink.
pipeline="$work/reference-job-postgres.yaml"
sed -n '/^sinks:/q;p' pipelines/reference-job.yaml > "$pipeline"
cat >> "$pipeline" <<YAML
sinks:
  out:
    type: postgres
    inputs: [smooth]
    url: postgres://daq@/postgres?host=$pg&port=$port
    password_env: PGPASSWORD
    table: daq_job
YAML
# The peer's input: the reference job's own CSV output, written once.
csv="$work/reference-$rows.csv"
[ -f "$csv" ] || INPUT="$input" OUTPUT="$csv" "$daq" run pipelines/reference-job.yaml --quiet --status never

median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
daq_times=(); copy_times=()
for round in $(seq 1 "$rounds"); do
    sql -c "DROP TABLE IF EXISTS daq_job; DROP TABLE IF EXISTS daq_flushes; DROP TABLE IF EXISTS psql_job; CHECKPOINT"
    start=$EPOCHREALTIME
    INPUT="$input" "$daq" run "$pipeline" --quiet --status never
    daq_times+=("$(echo "$EPOCHREALTIME - $start" | bc -l)")
    sql -c "CREATE TABLE psql_job (timestamp double precision, x double precision, y double precision, z double precision, magnitude double precision, magnitude_lp double precision); CHECKPOINT"
    start=$EPOCHREALTIME
    sql -c "\\copy psql_job FROM '$csv' WITH (FORMAT csv, HEADER true)"
    copy_times+=("$(echo "$EPOCHREALTIME - $start" | bc -l)")
    got=$(sql -c "SELECT (SELECT count(*) FROM daq_job WHERE kind = 'data') || ' ' || (SELECT count(*) FROM psql_job)")
    [ "$got" = "$rows $rows" ] || { echo "round $round: rows daq, psql = $got, expected $rows each" >&2; exit 1; }
    printf 'round %s: daq %.2f s, psql \\copy %.2f s\n' "$round" "${daq_times[-1]}" "${copy_times[-1]}"
done
d=$(printf '%s\n' "${daq_times[@]}" | median); c=$(printf '%s\n' "${copy_times[@]}" | median)
printf 'medians of %s, %s rows: daq (read CSV, transform, COPY binary) %.2f s = %.0f rows/s; psql \\copy of the output CSV %.2f s = %.0f rows/s; ratio %.2f\n' \
    "$rounds" "$rows" "$d" "$(echo "$rows/$d" | bc -l)" "$c" "$(echo "$rows/$c" | bc -l)" "$(echo "$d/$c" | bc -l)"
sql -c "SELECT 'table sizes: daq ' || pg_size_pretty(pg_total_relation_size('daq_job')) || ', psql ' || pg_size_pretty(pg_total_relation_size('psql_job'))"
