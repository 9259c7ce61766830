"""`serve(settings)` (what `hindsight serve` runs) in its own process: it answers, logs JSON, and stops cleanly."""

import json
import os
import signal
import subprocess
import sys
import time

import httpx
import pytest

from hindsight_memory.config import Settings
from hindsight_memory.models import RecallQuery
from hindsight_memory.service import build_service
from tests.support.moto import free_port

pytestmark = pytest.mark.slow
SCRIPT = (
    "import sys; from hindsight_memory.config import Settings; from hindsight_memory.gateway.app import serve; "
    "serve(Settings(store_uri=sys.argv[1], embedder='hashing', port=int(sys.argv[2])))"
)


def wait_for_health(url: str, proc: subprocess.Popen, timeout_s: float = 60) -> httpx.Response:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        assert proc.poll() is None, proc.stderr.read()
        try:
            return httpx.get(f"{url}/health", timeout=2, trust_env=False)
        except httpx.TransportError:
            time.sleep(0.1)
    raise TimeoutError("serve did not answer /health")


def test_serve_runs_the_gateway_on_loopback_without_tokens_over_the_clis_tables(tmp_path):
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-c", SCRIPT, str(tmp_path / "data"), str(port)],
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "HINDSIGHT_TOKENS": ""},
    )
    try:
        url = f"http://127.0.0.1:{port}"
        assert wait_for_health(url, proc).json()["status"] == "ok"
        r = httpx.post(
            f"{url}/v1/memories/store",
            trust_env=False,
            timeout=60,
            json={"namespace": "me/notes", "wait": True, "items": [{"content": "local memory works"}]},
        )
        assert r.status_code == 200
    finally:
        proc.send_signal(signal.SIGINT)
        _, stderr = proc.communicate(timeout=30)
    assert proc.returncode == 0
    logs = [json.loads(line) for line in stderr.splitlines() if line.startswith("{")]
    assert any(entry.get("route") == "/v1/memories/store" and entry.get("status") == 200 for entry in logs)
    assert "local memory works" not in stderr
    # Without tokens the one local tenant's tables are the store_uri itself: the CLI sees what was served.
    svc = build_service(Settings(store_uri=str(tmp_path / "data"), embedder="hashing"))
    try:
        recalled = svc.recall(RecallQuery(namespace="me/notes", query="local memory"))
    finally:
        svc.close()
    assert [m.content for m in recalled.memories] == ["local memory works"]
