#!/usr/bin/env bash
# A real single-node Slurm cluster on localhost, for running `daq batch --shard` as a job array
# the way a cluster would (the Slurm test in Tests/daqTests runs through it).
#
#   scripts/slurm-local.sh start    install Debian's slurm-wlm and munge if missing (needs root),
#                                   start munged, slurmctld and slurmd, wait until the node is idle
#   scripts/slurm-local.sh stop     stop slurmctld and slurmd (and munged, if this script started it)
#   scripts/slurm-local.sh status   exit 0 if the node answers and is up
#   scripts/slurm-local.sh env      print the `export SLURM_CONF=...` line that sbatch and sinfo need
#
# Everything Slurm writes (slurm.conf, state, spool, logs, pid files) goes under DAQ_SLURM_DIR
# (default /var/tmp/daq-slurm), and /etc/slurm is left alone, so a machine's own Slurm setup is
# not overwritten: the client commands find this cluster through SLURM_CONF. Starting when the
# cluster is already up does nothing; a stale or half-started one is stopped and started afresh.
# The node is `localhost` with the CPUs and memory `slurmd -C` finds; one partition, `daq`;
# cons_tres with cores as the consumable, so array tasks of one CPU each share the node; process
# tracking by /proc (proctrack/linuxproc), so no cgroups are needed.
set -euo pipefail

dir=${DAQ_SLURM_DIR:-/var/tmp/daq-slurm}
conf="$dir/slurm.conf"
wait_seconds=${DAQ_SLURM_WAIT:-60}
export SLURM_CONF="$conf"

fail() {
    echo "slurm-local.sh: $*" >&2
    for log in /var/log/munge/munged.log "$dir/slurmctld.log" "$dir/slurmd.log"; do
        if [ -s "$log" ]; then
            echo "--- last lines of $log:" >&2
            tail -n 20 "$log" >&2
        fi
    done
    exit 1
}

install_missing() {
    local need=()
    command -v slurmctld >/dev/null 2>&1 || [ -x /usr/sbin/slurmctld ] || need+=(slurm-wlm)
    command -v munged >/dev/null 2>&1 || [ -x /usr/sbin/munged ] || need+=(munge)
    [ ${#need[@]} -eq 0 ] && return 0
    if [ "$(id -u)" != 0 ]; then
        fail "missing: ${need[*]} (install them, or run as root)"
    fi
    apt-get update
    DEBIAN_FRONTEND=noninteractive apt-get install -y "${need[@]}"
}

munge_works() { munge -n 2>/dev/null | unmunge >/dev/null 2>&1; }

start_munge() {
    munge_works && return 0
    if [ ! -s /etc/munge/munge.key ]; then
        mkdir -p /etc/munge
        dd if=/dev/urandom of=/etc/munge/munge.key bs=1024 count=1 status=none
    fi
    chown munge:munge /etc/munge/munge.key
    chmod 400 /etc/munge/munge.key
    mkdir -p /run/munge /var/lib/munge /var/log/munge
    chown munge:munge /run/munge /var/lib/munge /var/log/munge
    chmod 755 /run/munge
    # munged refuses to run as root; it forks into the background once its socket is ready.
    runuser -u munge -- /usr/sbin/munged --force || fail "munged did not start"
    touch "$dir/munged.ours"
    munge_works || fail "munged started but a credential does not round-trip (munge -n | unmunge)"
}

write_conf() {
    # `slurmd -C` prints the node's real layout: NodeName=<host> CPUs=… RealMemory=…
    local layout
    layout=$(/usr/sbin/slurmd -C | head -n 1 | sed -E 's/^NodeName=[^ ]+ //')
    cat >"$conf" <<EOF
# Written by scripts/slurm-local.sh: one node on localhost.
ClusterName=daq-local
SlurmctldHost=localhost
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
MpiDefault=none
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
SlurmctldPort=${DAQ_SLURMCTLD_PORT:-6817}
SlurmdPort=${DAQ_SLURMD_PORT:-6818}
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
PlugStackConfig=$dir/plugstack.conf
NodeName=localhost NodeAddr=127.0.0.1 $layout State=UNKNOWN
PartitionName=daq Nodes=localhost Default=YES MaxTime=INFINITE State=UP
EOF
    : >"$dir/plugstack.conf"
}

alive() { [ -s "$1" ] && kill -0 "$(cat "$1")" 2>/dev/null; }

# A daemon's parent returns as soon as it forks, before the daemon has written its pid file, so
# a missing or empty pid file means "not yet" until the deadline; a pid that is gone means it died.
still_starting() {
    local name=$1 until=$2 f="$dir/$1.pid"
    if [ -s "$f" ]; then
        kill -0 "$(cat "$f")" 2>/dev/null || fail "$name exited while starting"
    elif [ $SECONDS -ge "$until" ]; then
        fail "$name did not write $f within 10 s"
    fi
}

node_state() { sinfo --noheader --nodes=localhost --format=%t 2>/dev/null | head -n 1; }

is_up() {
    alive "$dir/slurmctld.pid" && alive "$dir/slurmd.pid" && munge_works || return 1
    case "$(node_state)" in idle | mix | alloc) return 0 ;; *) return 1 ;; esac
}

stop_daemons() {
    local pids=() f
    for f in "$dir/slurmd.pid" "$dir/slurmctld.pid"; do
        if alive "$f"; then pids+=("$(cat "$f")"); fi
    done
    [ ${#pids[@]} -gt 0 ] && kill "${pids[@]}" 2>/dev/null || true
    # A bounded wait for them to exit, then SIGKILL.
    local i
    for i in $(seq 1 50); do
        local left=()
        for p in "${pids[@]}"; do kill -0 "$p" 2>/dev/null && left+=("$p"); done
        [ ${#left[@]} -eq 0 ] && break
        pids=("${left[@]}")
        sleep 0.2
    done
    for p in "${pids[@]}"; do kill -9 "$p" 2>/dev/null || true; done
    rm -f "$dir/slurmd.pid" "$dir/slurmctld.pid"
}

start() {
    install_missing
    mkdir -p "$dir"
    if [ -s "$conf" ] && is_up; then
        echo "slurm-local.sh: already up (SLURM_CONF=$conf)"
        return 0
    fi
    stop_daemons
    start_munge
    write_conf
    # Fresh state each start: jobs of an earlier cluster are not resumed.
    rm -rf "$dir/state" "$dir/spool"
    mkdir -p "$dir/state" "$dir/spool"
    : >"$dir/slurmctld.log"
    : >"$dir/slurmd.log"
    /usr/sbin/slurmctld -f "$conf" -i || fail "slurmctld did not start"
    /usr/sbin/slurmd -f "$conf" -N localhost || fail "slurmd did not start"
    local deadline=$((SECONDS + wait_seconds)) pid_deadline=$((SECONDS + 10)) state=""
    while [ $SECONDS -lt $deadline ]; do
        # Ours first: another cluster on the same ports would answer sinfo for us.
        still_starting slurmctld "$pid_deadline"
        still_starting slurmd "$pid_deadline"
        state=$(node_state)
        case "$state" in
            idle | mix | alloc)
                echo "slurm-local.sh: node localhost is $state (SLURM_CONF=$conf)"
                return 0
                ;;
            down* | drain* | fail*)
                # A node that registered before slurmctld was ready may be marked down; resume it.
                scontrol update nodename=localhost state=resume >/dev/null 2>&1 || true
                ;;
        esac
        sleep 0.5
    done
    fail "the node was not idle within $wait_seconds s (sinfo says '${state:-nothing}')"
}

stop() {
    [ -d "$dir" ] || return 0
    stop_daemons
    if [ -e "$dir/munged.ours" ]; then
        /usr/sbin/munged --stop >/dev/null 2>&1 || true
        rm -f "$dir/munged.ours"
    fi
    echo "slurm-local.sh: stopped"
}

case "${1:-}" in
    start) start ;;
    stop) stop ;;
    status) is_up ;;
    env) echo "export SLURM_CONF=$conf" ;;
    *)
        echo "usage: $0 start|stop|status|env" >&2
        exit 2
        ;;
esac
