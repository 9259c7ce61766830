# Shared settings for localstack/{install,start,stop}.sh. Sourced, not executed.
# Every value can be overridden from the environment.

LS_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO_ROOT="$(cd "$LS_DIR/.." && pwd)"

LOCALSTACK_VENV="${LOCALSTACK_VENV:-$REPO_ROOT/.venv-localstack}"
LOCALSTACK_CATALOG_DIR="$LOCALSTACK_VENV/share/hindsight-localstack" # pre-built service catalog (install.sh)
LOCALSTACK_PORT="${LOCALSTACK_PORT:-4566}"
LOCALSTACK_DATA_DIR="${LOCALSTACK_DATA_DIR:-$REPO_ROOT/.localstack-data}"
LOCALSTACK_PID_FILE="$LOCALSTACK_DATA_DIR/localstack.pid"
LOCALSTACK_LOG_FILE="$LOCALSTACK_DATA_DIR/localstack.log"
LOCALSTACK_SERVICES="${LOCALSTACK_SERVICES:-s3,sqs,iam,sts,events,scheduler,secretsmanager}"
LOCALSTACK_URL="http://127.0.0.1:$LOCALSTACK_PORT"

ls_log() { printf '[localstack] %s\n' "$*" >&2; }
ls_die() { printf '[localstack] ERROR: %s\n' "$*" >&2; exit 1; }

# Prints the pid from the pid file if that process is alive and is LocalStack's runtime.
ls_running_pid() {
    local pid
    [ -f "$LOCALSTACK_PID_FILE" ] || return 1
    pid="$(cat "$LOCALSTACK_PID_FILE" 2>/dev/null)"
    [[ "$pid" =~ ^[0-9]+$ ]] || return 1
    kill -0 "$pid" 2>/dev/null || return 1
    tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -q 'localstack.runtime.main' || return 1
    echo "$pid"
}

# Exit 0 when LocalStack answers on the port with s3 and sqs "available" (or "running").
# Uses the LocalStack venv's python (no curl/jq needed).
ls_healthy() {
    "$LOCALSTACK_VENV/bin/python" - "$LOCALSTACK_URL" <<'PY' 2>/dev/null
import json, sys, urllib.request
try:
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    with opener.open(sys.argv[1] + "/_localstack/health", timeout=3) as r:
        services = json.load(r).get("services", {})
except Exception:
    sys.exit(1)
ok = ("available", "running")
sys.exit(0 if services.get("s3") in ok and services.get("sqs") in ok else 1)
PY
}
