"""The image outside Lambda: its entrypoint (the Dockerfile's shell switch, then our entrypoint module) run as
separate processes, a gateway and two store workers, against S3 + SQS + Secrets Manager on moto server. The tokens
come from the tenant secret; wait=true returns once recall sees the items; the two workers never commit at the same
time (the FIFO store queue hands out one batch at a time). The image itself cannot be built here (no Docker
engine): these are the same code and command, not the built image."""

import asyncio
import json
import os
import subprocess
import sys
from pathlib import Path

import boto3
import httpx
import pytest

from hindsight_memory.gateway.auth import create_token
from tests.gateway.conftest import mcp_client
from tests.serverless.conftest import make_tenant
from tests.support.moto import free_port
from tests.support.wait import wait_until

pytestmark = [pytest.mark.e2e, pytest.mark.s3, pytest.mark.slow]
ROOT = Path(__file__).resolve().parents[2]
NS = "alice/containers"


def entrypoint_script() -> str:
    text = (ROOT / "Dockerfile").read_text().replace("\\\n", " ")
    line = next(ln for ln in text.splitlines() if ln.startswith("ENTRYPOINT"))
    return json.loads(line.partition(" ")[2])[2]


class Container:
    """One `docker run <image> <command>` as a process: the image's entrypoint script, our environment."""

    def __init__(self, command: str, env: dict[str, str], log: Path) -> None:
        self.log = log
        path = f"{Path(sys.executable).parent}:{os.environ.get('PATH', '')}"  # `python` = this venv's
        self.proc = subprocess.Popen(
            ["/bin/sh", "-c", entrypoint_script(), "--", command],
            env={**env, "PATH": path},
            cwd=ROOT,
            stdout=subprocess.DEVNULL,
            stderr=log.open("w"),
        )

    def lines(self) -> list[dict]:
        out = []
        for line in self.log.read_text().splitlines():
            if line.startswith("{"):
                try:
                    out.append(json.loads(line))
                except ValueError:
                    continue
        return out

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


@pytest.fixture(scope="module")
def tenant(s3_endpoint):
    return make_tenant(s3_endpoint, "moto")


@pytest.fixture(scope="module")
def containers(tenant, tmp_path_factory):
    """A gateway and two store workers of one tenant, tokens only in the tenant secret."""
    tmp_path = tmp_path_factory.mktemp("containers")
    token, record = create_token(tenant.name, ["alice/*"], name="agent")
    secrets = boto3.client(
        "secretsmanager",
        endpoint_url=tenant.endpoint,
        region_name="us-east-1",
        aws_access_key_id="test",
        aws_secret_access_key="test",
    )
    arn = secrets.create_secret(
        Name=f"hindsight/{tenant.name}/config", SecretString=json.dumps({"tokens": [record]})
    )["ARN"]
    port = free_port()
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith(("HINDSIGHT_", "AWS_"))},
        **tenant.env(),
        "HINDSIGHT_SECRET_ARN": arn,
        "HINDSIGHT_HOST": "127.0.0.1",
        "HINDSIGHT_PORT": str(port),
        "HINDSIGHT_ALLOWED_HOSTS": "127.0.0.1",
        "LITELLM_LOCAL_MODEL_COST_MAP": "True",
    }
    started = [
        Container("functions.gateway.handler.handler", env, tmp_path / "gateway.log"),
        Container("functions.store.handler.handler", env, tmp_path / "worker-1.log"),
        Container("functions.store.handler.handler", env, tmp_path / "worker-2.log"),
    ]
    url = f"http://127.0.0.1:{port}"
    try:
        healthy = wait_until(lambda: _health(url) == 200 or started[0].proc.poll() is not None, 120)
        assert healthy and started[0].proc.poll() is None, started[0].log.read_text()[-3000:]
        yield url, token, started
    finally:
        for c in started:
            c.stop()


def _health(url: str) -> int | None:
    try:
        return httpx.get(f"{url}/health", timeout=5).status_code
    except httpx.HTTPError:
        return None


def _mcp(url: str, token: str, *calls):
    async def go():
        async with mcp_client(url, token) as c:
            return [await c.call_tool(name, args) for name, args in calls]

    return asyncio.run(go())


def test_gateway_and_store_workers_from_the_image_entrypoint_serve_one_tenant(containers, tenant):
    url, token, (gateway, *workers) = containers

    # WHEN an agent stores with wait=true, then recalls, through the container gateway
    (stored,) = _mcp(
        url,
        token,
        (
            "memory_store",
            {"namespace": NS, "wait": True, "items": [{"content": "The VPN gateway is vpn2.example.com."}]},
        ),
    )
    (recalled,) = _mcp(url, token, ("memory_recall", {"namespace": NS, "query": "which VPN gateway"}))

    # THEN the store was committed by a worker and recall finds it: both read and write s3://<bucket>/tables
    assert not stored.is_error and stored.structured_content["status"] == "committed", stored.content
    assert [m["id"] for m in recalled.structured_content["memories"]][:1] == stored.structured_content[
        "ids"
    ], recalled.structured_content
    # AND the token came from the tenant secret (no HINDSIGHT_TOKENS anywhere); a wrong one is refused
    assert (
        httpx.post(f"{url}/v1/memories/recall", json={}, headers={"Authorization": "Bearer nope"}).status_code
        == 401
    )


def _batches(worker: Container) -> list[tuple[float, float]]:
    return [(ln["started_at"], ln["ended_at"]) for ln in worker.lines() if ln.get("msg") == "store batch"]


def _store(url: str, token: str, *facts: str, wait: bool = False) -> None:
    for fact in facts:
        (res,) = _mcp(
            url, token, ("memory_store", {"namespace": NS, "wait": wait, "items": [{"content": fact}]})
        )
        assert res.structured_content["status"] == ("committed" if wait else "queued"), res.content


def test_a_second_store_worker_waits_and_never_commits_beside_the_first(containers, tenant):
    url, token, (gateway, *workers) = containers
    facts = [f"Service {i} listens on port {9000 + i}." for i in range(20)]

    # WHEN many writes arrive while two store workers run (a rolling deploy)
    _store(url, token, *facts[:10])
    _store(url, token, "First half done.", wait=True)

    # THEN one worker holds the writer lease and commits every batch; the other waits, polling nothing
    active = [w for w in workers if _batches(w)]
    assert len(active) == 1, [len(_batches(w)) for w in workers]
    (writer,) = active
    (standby,) = [w for w in workers if w is not writer]
    assert any("waiting" in ln.get("msg", "") for ln in standby.lines())

    # WHEN the writing worker stops (SIGTERM: it releases the lease), and writes go on
    writer.stop()
    _store(url, token, *facts[10:])
    _store(url, token, "Second half done.", wait=True)

    # THEN the standby took over; no two batches ever ran at the same time; every write is there once
    assert _batches(standby)
    spans = sorted(_batches(writer) + _batches(standby))
    for (_, end), (start, _) in zip(spans, spans[1:], strict=False):
        assert start >= end, f"a batch started at {start} while another ran until {end}"
    query = {"namespace": NS, "query": "which port", "top_k": 100, "min_score": 0}
    (listed,) = _mcp(url, token, ("memory_recall", query))
    contents = [m["content"] for m in listed.structured_content["memories"]]
    assert sorted(c for c in contents if c.startswith("Service")) == sorted(facts)
