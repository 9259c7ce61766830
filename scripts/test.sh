#!/usr/bin/env bash
# Runs the whole suite. Starts LocalStack on the host (no Docker) for the tests that need it, stops it after.
set -euo pipefail
cd "$(dirname "$0")/.."
started=0
started_file=""
cleanup() {
  if [ -n "$started_file" ]; then rm -f "$started_file"; fi
  if [ "$started" = 1 ]; then bash localstack/stop.sh || true; fi
}
trap cleanup EXIT
# The inspector's browser tests drive Debian's Chromium (never a downloaded browser): install it when missing.
# If it cannot be installed, those tests fail under CI=true rather than skip.
if ! command -v chromium >/dev/null || ! command -v chromedriver >/dev/null; then
  if command -v apt-get >/dev/null && [ "$(id -u)" = 0 ]; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver >/dev/null
  else
    echo "chromium + chromium-driver are missing and cannot be installed here (needs root and apt-get)" >&2
  fi
fi
if [ -f localstack/start.sh ] && [ "${HINDSIGHT_SKIP_LOCALSTACK:-0}" != "1" ]; then
  bash localstack/install.sh
  # start.sh writes the pid here only if it started LocalStack: one already running is reused and left running.
  started_file="$(mktemp)"
  LOCALSTACK_STARTED_FILE="$started_file" bash localstack/start.sh
  if [ -s "$started_file" ]; then started=1; fi
  export HINDSIGHT_REQUIRE_LOCALSTACK=1
fi
# Each module runs on one worker (--dist loadscope): the IAM test's module shares one emulator and function
# processes across its tests, in order. (--dist loadgroup with xdist_group marks does not group under pytest 9.2 with
# pytest-xdist 3.8: xdist tags the group onto item._nodeid, which pytest 9 no longer reads; every group is one module.)
# Modules are handed out in collection order (tests/conftest.py puts the longest first), not by their test count.
.venv/bin/python -m pytest -q -n 2 --dist loadscope --no-loadscope-reorder tests "$@"
