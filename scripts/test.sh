#!/usr/bin/env bash
# The test command of README.md: installs what the tests need on a fresh Debian machine with
# the Swift toolchain (Mosquitto among them), builds every product, runs the whole test suite,
# then fuzzes the BLE parsers for 60 seconds.
set -euo pipefail
cd "$(dirname "$0")/.."

need=()
command -v python3 >/dev/null 2>&1 || need+=(python3)
[ -f /usr/include/zlib.h ] || need+=(zlib1g-dev)
command -v gzip >/dev/null 2>&1 || need+=(gzip)
# The schema tests validate every shipped pipeline with the reference Python validator.
python3 -c 'import jsonschema' >/dev/null 2>&1 || need+=(python3-jsonschema)
python3 -c 'import yaml' >/dev/null 2>&1 || need+=(python3-yaml)
if [ ${#need[@]} -gt 0 ]; then
    if [ "$(id -u)" = 0 ]; then
        apt-get update
        apt-get install -y "${need[@]}"
    else
        echo "missing: ${need[*]} (install them, or run as root)" >&2
        exit 1
    fi
fi

# The MQTT tests start a real Mosquitto broker on a loopback port of their own.
command -v mosquitto >/dev/null || [ -x /usr/sbin/mosquitto ] || { apt-get update && apt-get install -y mosquitto mosquitto-clients; }

swift build --build-tests
swift test --skip-build
# The BLE parsers take bytes from radios and files nobody vetted: a fixed fuzzing run.
FUZZ_SECONDS=${FUZZ_SECONDS:-60} ./scripts/fuzz-ble.sh
