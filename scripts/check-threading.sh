#!/usr/bin/env bash
# DAQCore owns every thread, queue and timer: a plugin asks its StageContext for timers
# (after, wake(atUptime:)), descriptor readiness (watch) and blocking work (offload), and never
# blocks a queue. This fails, naming file:line, when a file under Plugins/ (or the directory
# given) imports Dispatch or makes or waits on threads, queues, timers, semaphores, conditions
# or futures itself.
#
# scripts/threading-allowlist.txt names the files not moved yet; it may only shrink: a listed
# file that no longer needs its entry is an error too, so the entry is removed with the move.
set -euo pipefail
cd "$(dirname "$0")/.."
root=${1:-Plugins}
allowlist=${ALLOWLIST:-scripts/threading-allowlist.txt}

# Whole words, so `# Thread safety` in a doc comment and `waitForFirstOutcome` pass.
pattern='^[[:space:]]*import[[:space:]]+Dispatch\b|\bDispatch(Queue|Source[A-Za-z]*|Semaphore|Group|Time|TimeInterval|WorkItem)\b|\basyncAfter\b|\bNSCondition(Lock)?\b|\b(u|nano)?sleep\(|\bThread[[:space:]]*[({.]|\.wait\('

allowed() {
    [[ -f "$allowlist" ]] && grep -qxF "$1" <(grep -v '^#' "$allowlist")
}

status=0
declare -A offending=()
# Comment lines are skipped: explaining why something is not done is allowed.
while IFS= read -r hit; do
    file=${hit%%:*}
    rest=${hit#*:}
    line=${rest%%:*}
    code=${rest#*:}
    [[ "$code" =~ ^[[:space:]]*// ]] && continue
    offending[$file]=1
    allowed "$file" && continue
    echo "$file:$line: plugins may not thread or block themselves; use StageContext (after, wake(atUptime:), watch, offload, perform): ${code#"${code%%[![:space:]]*}"}" >&2
    status=1
done < <(grep -rnE --include='*.swift' "$pattern" "$root" || true)

if [[ -f "$allowlist" ]]; then
    while IFS= read -r entry; do
        [[ -z "$entry" || "$entry" == \#* ]] && continue
        [[ "$entry" == "$root"/* ]] || continue
        if [[ -z "${offending[$entry]:-}" ]]; then
            echo "$allowlist: $entry no longer threads or blocks itself: remove its entry" >&2
            status=1
        fi
    done <"$allowlist"
fi

if [[ $status -eq 0 ]]; then echo "check-threading: no plugin threads or blocks itself (outside the allowlist)"; fi
exit $status
