#!/bin/sh
# LocalStack READY-stage init hook: create tenant ${HINDSIGHT_TENANT:-local}'s bucket and queues
# (see ../bootstrap.py). Idempotent. Runs
#   * inside the localstack/localstack container (docker-compose mounts ../bootstrap.py next to ready.d),
#   * on the host, from localstack/start.sh's runtime or by hand: localstack/init/ready.d/10-hindsight.sh
# It needs a python with boto3; no aws/awslocal CLI.
set -eu

here="$(cd "$(dirname "$0")" && pwd)"
script="$here/../bootstrap.py"
[ -f "$script" ] || { echo "10-hindsight.sh: $script not found" >&2; exit 1; }

python=""
for candidate in "${HINDSIGHT_LOCALSTACK_PYTHON:-}" \
    "$here/../../../.venv-localstack/bin/python" \
    /opt/code/localstack/.venv/bin/python \
    python3; do
    [ -n "$candidate" ] || continue
    if "$candidate" -c 'import boto3' >/dev/null 2>&1; then
        python="$candidate"
        break
    fi
done
[ -n "$python" ] || { echo "10-hindsight.sh: no python with boto3 found (set HINDSIGHT_LOCALSTACK_PYTHON)" >&2; exit 1; }

# Inside the container the gateway is localhost:4566; start.sh exports LOCALSTACK_ENDPOINT on the host.
exec "$python" "$script" --endpoint "${LOCALSTACK_ENDPOINT:-http://localhost:4566}"
