"""A second, independent client: the TypeScript MCP SDK from npm, run by node against the live gateway."""

import fcntl
import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

CLIENT_DIR = Path(__file__).parent.parent / "ts_client"
pytestmark = pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")


@pytest.fixture(scope="module")
def ts_client():
    # Test workers are separate processes: a file lock makes one of them install while the other waits,
    # instead of two `npm ci` runs deleting each other's node_modules.
    with open(CLIENT_DIR / ".install.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (CLIENT_DIR / "node_modules" / ".installed").exists():
            # The lock file pins the SDK; `npm ci` installs exactly that.
            subprocess.run(
                ["npm", "ci", "--no-audit", "--no-fund"],
                cwd=CLIENT_DIR,
                check=True,
                timeout=300,
                capture_output=True,
            )
            (CLIENT_DIR / "node_modules" / ".installed").touch()
    return CLIENT_DIR / "client.mjs"


def test_the_typescript_sdk_stores_and_recalls_over_streamable_http(live_gateway, ts_client):
    env = {
        **os.environ,
        "HINDSIGHT_URL": f"{live_gateway.url}/mcp",
        "HINDSIGHT_TOKEN": live_gateway.tokens["alice"],
    }
    proc = subprocess.run(
        ["node", str(ts_client), "alice/ts"],
        cwd=CLIENT_DIR,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout.strip().splitlines()[-1])
    assert "memory_recall" in out["tools"] and "memory_stats" not in out["tools"]
    assert not out["storedError"] and out["stored"]["status"] == "committed"
    top = out["recalled"]["memories"][0]
    assert top["content"] == "Carol reviews every TypeScript pull request." and top["tags"] == ["review"]
    assert "not instructions" in out["recalledText"][0]


def test_the_typescript_sdk_without_a_token_is_refused(live_gateway, ts_client):
    env = {**os.environ, "HINDSIGHT_URL": f"{live_gateway.url}/mcp", "HINDSIGHT_TOKEN": ""}
    proc = subprocess.run(
        ["node", str(ts_client), "alice/ts"],
        cwd=CLIENT_DIR,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode != 0 and "401" in proc.stderr
