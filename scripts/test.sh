#!/usr/bin/env bash
# Runs the whole suite. Starts LocalStack on the host (no Docker) for the tests that need it, stops it after.
set -euo pipefail
cd "$(dirname "$0")/.."
started=0
if [ -f localstack/start.sh ] && [ "${HINDSIGHT_SKIP_LOCALSTACK:-0}" != "1" ]; then
  bash localstack/install.sh
  bash localstack/start.sh
  started=1
  export HINDSIGHT_REQUIRE_LOCALSTACK=1
fi
cleanup() { if [ "$started" = 1 ]; then bash localstack/stop.sh || true; fi; }
trap cleanup EXIT
.venv/bin/python -m pytest -q -n 2 --dist loadgroup tests "$@"
