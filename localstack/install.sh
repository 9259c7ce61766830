#!/usr/bin/env bash
# Install LocalStack's runtime (localstack-core) into <repo>/.venv-localstack, for running it on the
# host without Docker. Idempotent: does nothing when the venv already matches requirements.txt.
#
# Needs Python 3.13. Looked up in this order: $LOCALSTACK_PYTHON, python3.13 on PATH,
# $(pyenv root)/versions/3.13.*, ~/.pyenv/versions/3.13.*, /usr/local/bin and /usr/bin.
# Set LOCALSTACK_FORCE_REINSTALL=1 to rebuild the venv from scratch.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

REQUIREMENTS="$LS_DIR/requirements.txt"
STAMP="$LOCALSTACK_VENV/.hindsight-localstack-stamp"

is_py313() { [ -x "$1" ] && "$1" -c 'import sys, venv; sys.exit(sys.version_info[:2] != (3, 13))' >/dev/null 2>&1; }

find_python313() {
    local candidates=() c root
    [ -n "${LOCALSTACK_PYTHON:-}" ] && candidates+=("$LOCALSTACK_PYTHON")
    c="$(command -v python3.13 2>/dev/null || true)"
    [ -n "$c" ] && candidates+=("$c")
    if command -v pyenv >/dev/null 2>&1; then
        root="$(pyenv root 2>/dev/null || true)"
        [ -n "$root" ] && candidates+=($(ls -d "$root"/versions/3.13.*/bin/python3.13 2>/dev/null | sort -rV))
    fi
    candidates+=($(ls -d "$HOME"/.pyenv/versions/3.13.*/bin/python3.13 2>/dev/null | sort -rV))
    candidates+=(/usr/local/bin/python3.13 /usr/bin/python3.13)
    for c in "${candidates[@]}"; do
        if is_py313 "$c"; then
            # resolve pyenv shims etc. to the real interpreter
            "$c" -c 'import sys; print(sys.executable)'
            return 0
        fi
    done
    return 1
}

PY313="$(find_python313)" || ls_die "Python 3.13 not found (localstack-core needs it). Install it, e.g.
    pyenv install 3.13      (or: apt-get install python3.13 python3.13-venv, where the distribution has it)
or point LOCALSTACK_PYTHON at a python3.13 binary, then rerun $0."

want_stamp="$( { "$PY313" -c 'import sys; print(sys.version)'; cat "$REQUIREMENTS"; } | sha256sum | cut -d' ' -f1)"

if [ "${LOCALSTACK_FORCE_REINSTALL:-0}" != "1" ] && [ -f "$STAMP" ] && [ "$(cat "$STAMP")" = "$want_stamp" ] &&
    "$LOCALSTACK_VENV/bin/python" -c 'import localstack.runtime.main, boto3' >/dev/null 2>&1 &&
    ls "$LOCALSTACK_CATALOG_DIR"/service-catalog-*.dill >/dev/null 2>&1; then
    ls_log "up to date: $LOCALSTACK_VENV ($("$LOCALSTACK_VENV/bin/python" -V))"
    exit 0
fi

start=$(date +%s)
if [ "${LOCALSTACK_FORCE_REINSTALL:-0}" = "1" ] || ! is_py313 "$LOCALSTACK_VENV/bin/python"; then
    ls_log "creating $LOCALSTACK_VENV with $PY313"
    rm -rf "$LOCALSTACK_VENV"
    "$PY313" -m venv "$LOCALSTACK_VENV"
fi
rm -f "$STAMP"

ls_log "installing localstack-core from $REQUIREMENTS (40 s with a warm pip cache, up to 3 min without)"
# (the filter drops pip's notes about this machine's optional local index mirrors)
"$LOCALSTACK_VENV/bin/python" -m pip install --quiet --disable-pip-version-check --no-input \
    -r "$REQUIREMENTS" 2>&1 | { grep -v 'is ignored: it is neither a file nor a directory' || true; }
"$LOCALSTACK_VENV/bin/python" -m pip check >/dev/null || ls_log "warning: pip check reports conflicts"
"$LOCALSTACK_VENV/bin/python" -c 'import localstack.runtime.main, boto3' ||
    ls_die "localstack-core installed but does not import"

# Pre-build LocalStack's service catalog index (what LocalStack's Docker image does at build time).
# Without it the runtime builds it in-process on its first start and keeps ~515 MB RSS instead of ~180 MB.
# start.sh copies it into the data dir ($FILESYSTEM_ROOT/usr/lib/localstack).
rm -rf "$LOCALSTACK_CATALOG_DIR"
tmp_root="$(mktemp -d)"
mkdir -p "$tmp_root/usr/lib/localstack" "$LOCALSTACK_CATALOG_DIR"
(cd "$tmp_root" && OVERRIDE_IN_DOCKER=0 FILESYSTEM_ROOT="$tmp_root" "$LOCALSTACK_VENV/bin/python" -m localstack.aws.spec) ||
    ls_log "warning: could not pre-build the service catalog (the runtime will build it on first start)"
mv "$tmp_root"/usr/lib/localstack/service-catalog-*.dill "$LOCALSTACK_CATALOG_DIR"/ 2>/dev/null || true
rm -rf "$tmp_root"

echo "$want_stamp" >"$STAMP"
ls_log "installed $("$LOCALSTACK_VENV/bin/python" -m pip show localstack-core | awk '/^Version/{print "localstack-core " $2}') in $(($(date +%s) - start)) s"
