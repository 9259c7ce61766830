#!/usr/bin/env bash
# Stop the LocalStack runtime started by localstack/start.sh (the pid in its pid file only).
# Safe to call twice, and when nothing runs.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

if ! pid="$(ls_running_pid)"; then
    rm -f "$LOCALSTACK_PID_FILE"
    ls_log "not running (no live pid in $LOCALSTACK_PID_FILE)"
    exit 0
fi

# start.sh runs it under setsid, so it leads its own process group: signal the group (it and any
# helper processes it spawned), else only the pid.
target="$pid"
[ "$(ps -o pgid= -p "$pid" 2>/dev/null | tr -d ' ')" = "$pid" ] && target="-$pid"
ls_log "stopping LocalStack (pid $pid)"
kill -TERM -- "$target" 2>/dev/null || true
for _ in $(seq 1 60); do # graceful shutdown takes a few seconds
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.5
done
if kill -0 "$pid" 2>/dev/null; then
    ls_log "still alive after 30 s: SIGKILL"
    kill -KILL -- "$target" 2>/dev/null || true
    sleep 0.5
fi
rm -f "$LOCALSTACK_PID_FILE"
ls_log "stopped"
