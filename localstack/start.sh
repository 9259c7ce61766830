#!/usr/bin/env bash
# Start LocalStack's runtime on the host, in the background, without Docker, then make sure the
# hindsight resources exist (init hooks in localstack/init/ready.d). Safe to call twice.
#
#   LOCALSTACK_PORT       gateway port on 127.0.0.1 (default 4566)
#   LOCALSTACK_DATA_DIR   FILESYSTEM_ROOT, pid and log file (default <repo>/.localstack-data)
#   LOCALSTACK_SERVICES   default s3,sqs,iam,sts,events,scheduler,secretsmanager
#   LOCALSTACK_TIMEOUT    seconds to wait for readiness (default 90)
#   HINDSIGHT_TENANT      tenant whose bucket/queues the init hook creates (default local)
#   LOCALSTACK_STARTED_FILE if set, receives the pid of the LocalStack this call started; stays empty when
#                         one was already running, so a caller stops only what it started
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

TIMEOUT="${LOCALSTACK_TIMEOUT:-90}"
PY="$LOCALSTACK_VENV/bin/python"
export HINDSIGHT_TENANT="${HINDSIGHT_TENANT:-local}"
STARTED_FILE="${LOCALSTACK_STARTED_FILE:-}"
[ -z "$STARTED_FILE" ] || : >"$STARTED_FILE"

[ -x "$PY" ] && "$PY" -c 'import localstack.runtime.main' 2>/dev/null ||
    ls_die "LocalStack is not installed in $LOCALSTACK_VENV: run localstack/install.sh first"

bootstrap_now() {
    LOCALSTACK_ENDPOINT="$LOCALSTACK_URL" HINDSIGHT_LOCALSTACK_PYTHON="$PY" \
        "$LS_DIR/init/ready.d/10-hindsight.sh"
}

started=0
if pid="$(ls_running_pid)"; then
    if ls_healthy; then
        ls_log "already running (pid $pid) at $LOCALSTACK_URL"
        bootstrap_now
        exit 0
    fi
    ls_log "pid $pid is alive but not healthy yet; waiting for it"
elif ls_healthy; then
    ls_log "a LocalStack not started by this script already answers at $LOCALSTACK_URL; using it"
    bootstrap_now
    exit 0
else
    if "$PY" -c 'import socket, sys; s = socket.socket(); s.settimeout(1); sys.exit(s.connect_ex(("127.0.0.1", int(sys.argv[1]))) != 0)' "$LOCALSTACK_PORT"; then
        ls_die "port $LOCALSTACK_PORT on 127.0.0.1 is taken by something that is not a healthy LocalStack; set LOCALSTACK_PORT"
    fi

    # LocalStack's own init-hook mechanism: on the host it reads $FILESYSTEM_ROOT/etc/localstack/init/<stage>.d
    mkdir -p "$LOCALSTACK_DATA_DIR/etc/localstack"
    ln -sfn "$LS_DIR/init" "$LOCALSTACK_DATA_DIR/etc/localstack/init"
    : >"$LOCALSTACK_LOG_FILE"
    # the service catalog index pre-built by install.sh, where the runtime looks for it ("static libs")
    mkdir -p "$LOCALSTACK_DATA_DIR/usr/lib/localstack"
    for f in "$LOCALSTACK_CATALOG_DIR"/service-catalog-*.dill; do
        if [ -f "$f" ] && [ ! -f "$LOCALSTACK_DATA_DIR/usr/lib/localstack/${f##*/}" ]; then
            cp "$f" "$LOCALSTACK_DATA_DIR/usr/lib/localstack/"
        fi
    done

    ls_log "starting localstack-core on $LOCALSTACK_URL (services: $LOCALSTACK_SERVICES; log: $LOCALSTACK_LOG_FILE)"
    (
        cd "$LOCALSTACK_DATA_DIR"
        # OVERRIDE_IN_DOCKER=0: this machine looks like a container, but the runtime runs on the host.
        # DNS server, analytics and the TLS-certificate download all need the internet: off.
        export OVERRIDE_IN_DOCKER=0 \
            FILESYSTEM_ROOT="$LOCALSTACK_DATA_DIR" \
            SERVICES="$LOCALSTACK_SERVICES" \
            GATEWAY_LISTEN="127.0.0.1:$LOCALSTACK_PORT" \
            LOCALSTACK_HOST="127.0.0.1:$LOCALSTACK_PORT" \
            SQS_ENDPOINT_STRATEGY=dynamic \
            SQS_DISABLE_CLOUDWATCH_METRICS=1 \
            DNS_ADDRESS=0 \
            DISABLE_EVENTS=1 \
            SKIP_SSL_CERT_DOWNLOAD=1 \
            LOCALSTACK_ENDPOINT="$LOCALSTACK_URL" \
            HINDSIGHT_LOCALSTACK_PYTHON="$PY"
        exec setsid "$PY" -m localstack.runtime.main </dev/null >>"$LOCALSTACK_LOG_FILE" 2>&1
    ) &
    pid=$!
    started=1
    echo "$pid" >"$LOCALSTACK_PID_FILE"
    [ -z "$STARTED_FILE" ] || echo "$pid" >"$STARTED_FILE"
fi

fail() {
    ls_log "$1; last lines of $LOCALSTACK_LOG_FILE:"
    tail -n 40 "$LOCALSTACK_LOG_FILE" >&2 || true
    # don't leave a half-initialised instance behind (LOCALSTACK_KEEP_ON_FAILURE=1 keeps it, to debug)
    if [ "$started" = 1 ] && [ "${LOCALSTACK_KEEP_ON_FAILURE:-0}" != 1 ]; then
        "$LS_DIR/stop.sh" || true
    fi
    exit 1
}

# 1) gateway healthy for s3 + sqs, 2) the READY-stage init hooks have run and succeeded.
t0=$(date +%s)
until ls_healthy; do
    kill -0 "$pid" 2>/dev/null || fail "LocalStack (pid $pid) exited during startup"
    [ $(($(date +%s) - t0)) -lt "$TIMEOUT" ] || fail "LocalStack not healthy after ${TIMEOUT}s"
    sleep 0.5
done
ls_log "healthy after $(($(date +%s) - t0)) s (pid $pid)"

init_state() {
    "$PY" - "$LOCALSTACK_URL" <<'PY'
import json, sys, urllib.request
opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
try:
    with opener.open(sys.argv[1] + "/_localstack/init/ready", timeout=3) as r:
        info = json.load(r)
except Exception:
    print("pending"); sys.exit()
states = {s["name"]: s["state"] for s in info.get("scripts", [])}
if not info.get("completed"):
    print("pending")
elif any(v != "SUCCESSFUL" for v in states.values()):
    print("failed " + json.dumps(states))
else:
    print("ok " + json.dumps(states))
PY
}
while :; do
    state="$(init_state)"
    case "$state" in
        ok*) ls_log "init hooks done: ${state#ok }"; break ;;
        failed*) fail "init hook failed: ${state#failed }" ;;
    esac
    kill -0 "$pid" 2>/dev/null || fail "LocalStack (pid $pid) exited during startup"
    [ $(($(date +%s) - t0)) -lt "$TIMEOUT" ] || fail "init hooks not finished after ${TIMEOUT}s"
    sleep 0.5
done
ls_log "ready in $(($(date +%s) - t0)) s at $LOCALSTACK_URL (tenant $HINDSIGHT_TENANT)"
