"""A second, independent client: the TypeScript MCP SDK from npm, run by node against the live gateway."""

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

CLIENT_DIR = Path(__file__).parent.parent / "ts_client"
# One worker runs both tests: two concurrent `npm ci` in one folder would delete each other's node_modules.
pytestmark = [pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed"),
              pytest.mark.xdist_group("ts_client")]


@pytest.fixture(scope="module")
def ts_client():
    if not (CLIENT_DIR / "node_modules" / "@modelcontextprotocol" / "sdk").exists():
        # The lock file pins the SDK; `npm ci` installs exactly that.
        subprocess.run(["npm", "ci", "--no-audit", "--no-fund"], cwd=CLIENT_DIR, check=True, timeout=300,
                       capture_output=True)
    return CLIENT_DIR / "client.mjs"


def test_the_typescript_sdk_stores_and_recalls_over_streamable_http(live_gateway, ts_client):
    env = {**os.environ, "HINDSIGHT_URL": f"{live_gateway.url}/mcp", "HINDSIGHT_TOKEN": live_gateway.tokens["alice"]}
    proc = subprocess.run(["node", str(ts_client), "alice/ts"], cwd=CLIENT_DIR, env=env, capture_output=True,
                          text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout.strip().splitlines()[-1])
    assert "memory_recall" in out["tools"] and "memory_stats" not in out["tools"]
    assert not out["storedError"] and out["stored"]["status"] == "committed"
    top = out["recalled"]["memories"][0]
    assert top["content"] == "Carol reviews every TypeScript pull request." and top["tags"] == ["review"]
    assert "not instructions" in out["recalledText"][0]


def test_the_typescript_sdk_without_a_token_is_refused(live_gateway, ts_client):
    env = {**os.environ, "HINDSIGHT_URL": f"{live_gateway.url}/mcp", "HINDSIGHT_TOKEN": ""}
    proc = subprocess.run(["node", str(ts_client), "alice/ts"], cwd=CLIENT_DIR, env=env, capture_output=True,
                          text=True, timeout=120)
    assert proc.returncode != 0 and "401" in proc.stderr
