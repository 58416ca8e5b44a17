#!/bin/sh
# An exec source for daq: writes COUNT (default 10) samples {"uptime": i/10, "n": i}, then exits.
# daq's hello arrives on stdin; a source may ignore it.
count=${COUNT:-10}
i=0
while [ "$i" -lt "$count" ]; do
    printf '{"uptime":%d.%d,"n":%d}\n' $((i / 10)) $((i % 10)) "$i"
    i=$((i + 1))
done
