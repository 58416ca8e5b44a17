#!/usr/bin/env bash
# Fuzzes the readers of untrusted input with libFuzzer, one target after another: the gzip path
# (GzipDecoder, LineReader over .gz), the CSV and JSON Lines recording readers with their number
# parsing, the device-file readers (.cwa, .gt3x, GENEActiv .bin and CSV, ActiLife CSV), scanned
# codes (GS1, Digital Link, AIM identifiers), JSON values, YAML pipelines (the loader) and the
# control socket's protocol lines (`daq tap`'s glob and rate among them).
# Each starts from small valid files the DAQTesting writers make and runs for
# ${FUZZ_SECONDS:-20} seconds from a fixed seed (FUZZ_RUNS=N: exactly N inputs instead);
# FUZZ_TARGETS="gzip csv" picks targets. Exits non-zero on a crash, leak, hang or runaway
# memory, leaving the input under .build-fuzz/crashes/readers-<target>-*; replay it with
#   READERS_FUZZ_TARGET=<target> swift run readers-fuzz .build-fuzz/crashes/FILE
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${FUZZ_SECONDS:-20}
scratch=.build-fuzz
swift build --scratch-path "$scratch" --product readers-fuzz \
    -Xswiftc -sanitize=fuzzer,address -Xswiftc -DFUZZING -Xswiftc -use-ld=lld
fuzzer="$scratch/debug/readers-fuzz"
seeds="$scratch/readers-seeds"
rm -rf "$seeds"
"$fuzzer" --seeds "$seeds"
mkdir -p "$scratch/crashes"
for target in ${FUZZ_TARGETS:-gzip csv cwa gt3x geneactiv gs1 json yaml control}; do
    corpus="$scratch/corpus-readers-$target"
    mkdir -p "$corpus"
    case $target in
        gzip)
            gzip -c "$seeds/seed.csv" > "$corpus/seed.csv.gz"
            head -c 3000 recordings/walk.csv | gzip -c > "$corpus/walk.csv.gz"
            # Two members one after another, as `cat a.gz b.gz` makes them.
            cat "$corpus/seed.csv.gz" "$corpus/walk.csv.gz" > "$corpus/members.gz"
            ;;
        csv)
            cp "$seeds/seed.csv" "$seeds/seed.jsonl" "$corpus/"
            head -c 2000 recordings/walk.csv > "$corpus/walk.csv"
            ;;
        cwa) cp "$seeds/seed.cwa" "$corpus/" ;;
        # Valid, zip64, stored and idle-sleep seeds, and the hostile files of issue 39: forged
        # zip64 counts, sizes and offsets, info.txt numbers that overflow, fill bombs. Half the
        # mutations write such values into zip64 records and info.txt (Mutator.swift).
        gt3x) cp "$seeds"/seed*.gt3x Tests/Fixtures/hostile/*.gt3x "$corpus/" ;;
        geneactiv) cp "$seeds/seed.bin" "$corpus/" ;;
        gs1)
            # Codes as scanners send them, with and without AIM identifiers, and a Digital Link.
            python3 -c 'import json, sys
for i, line in enumerate(open("recordings/scans.jsonl")):
    code = json.loads(line).get("code")
    if code: open(sys.argv[1] + "/scan-%d" % i, "w").write(code)' "$corpus"
            printf '%s' '01095011015300031726123110LOT4711' > "$corpus/bare"
            printf '%s' 'https://id.gs1.org/01/09506000134352/10/ABC?17=261231' > "$corpus/link"
            ;;
        json) head -c 4000 recordings/ids.jsonl > "$corpus/ids.jsonl"; head -c 2000 recordings/scans.jsonl > "$corpus/scans.jsonl" ;;
        control) cp "$seeds/seed.control" "$corpus/" ;;
        yaml) cp pipelines/hello.yaml pipelines/reference-job.yaml pipelines/hello.daqtest.yaml "$corpus/" ;;
        *) echo "fuzz-readers.sh: unknown target '$target'" >&2; exit 2 ;;
    esac
    if [ -n "${FUZZ_RUNS:-}" ]; then
        limit=(-runs="$FUZZ_RUNS" -seed=1)
    else
        limit=(-max_total_time="$seconds" -seed="${FUZZ_SEED:-1}")
    fi
    echo "fuzz-readers.sh: $target"
    READERS_FUZZ_TARGET=$target "$fuzzer" "${limit[@]}" -max_len=65536 -rss_limit_mb=2048 -timeout=20 \
        -artifact_prefix="$scratch/crashes/readers-$target-" -print_final_stats=1 "$corpus"
done
