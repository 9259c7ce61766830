"""The whole serverless topology on one machine, without Docker: LocalStack (S3 + SQS) started by
localstack/start.sh, the local runner feeding the store, reflect and compact handlers, and the gateway under
uvicorn with HINDSIGHT_QUEUE=sqs — the same code paths as on Lambda, in one process.

    python -m hindsight_memory.serverless.local_stack [--tenant local] [--port 8765] [--schedule-every 300]
"""

import argparse
import json
import logging
import os
import subprocess
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .runner import LocalRunner, QueueSource, load_handler

log = logging.getLogger(__name__)
ROOT = Path(__file__).resolve().parents[3]


@dataclass
class TenantStack:
    """Where one tenant's resources live on the emulator (named as terraform and the bootstrap name them)."""

    endpoint: str
    tenant: str
    store_url: str
    reflect_url: str
    region: str = "us-east-1"
    extra_env: dict[str, str] = field(default_factory=dict)

    @property
    def bucket(self) -> str:
        return f"hindsight-{self.tenant}"

    def env(self) -> dict[str, str]:
        """The functions' environment as terraform sets it, plus the SDK endpoint of the emulator."""
        return {
            "AWS_ENDPOINT_URL": self.endpoint,
            "AWS_DEFAULT_REGION": self.region,
            "AWS_REGION": self.region,
            "AWS_ACCESS_KEY_ID": os.environ.get("AWS_ACCESS_KEY_ID", "test"),
            "AWS_SECRET_ACCESS_KEY": os.environ.get("AWS_SECRET_ACCESS_KEY", "test"),
            "HINDSIGHT_TENANT": self.tenant,
            "HINDSIGHT_STORE_URI": f"s3://{self.bucket}/tables",
            "HINDSIGHT_COLD_URI": f"s3://{self.bucket}/cold",
            "HINDSIGHT_S3_ENDPOINT": self.endpoint,
            "HINDSIGHT_QUEUE": "sqs",
            "HINDSIGHT_STORE_QUEUE_URL": self.store_url,
            "HINDSIGHT_REFLECT_QUEUE_URL": self.reflect_url,
            "LITELLM_LOCAL_MODEL_COST_MAP": "True",
            **self.extra_env,
        }

    def sqs(self) -> Any:
        import boto3

        return boto3.client("sqs", endpoint_url=self.endpoint, region_name=self.region)


class LocalTopology:
    """Runner + gateway for one tenant. Reads the environment set by `TenantStack.env()` (call `apply_env`)."""

    def __init__(
        self,
        stack: TenantStack,
        *,
        port: int,
        schedule_every_s: float | None = None,
        batch_size: int = 10,
        window_s: float = 0.5,
    ) -> None:
        self.stack = stack
        self.port = port
        sqs = stack.sqs()
        self.store = QueueSource("store", stack.store_url, load_handler("store"), batch_size, window_s)
        self.reflect = QueueSource(
            "reflect", stack.reflect_url, load_handler("reflect"), batch_size, window_s
        )
        self.runner = LocalRunner(
            sqs,
            [self.store, self.reflect],
            region=stack.region,
            wait_s=1,
            schedules={"reflect": self.reflect.handler, "compact": load_handler("compact")},
            schedule_interval_s=schedule_every_s,
        )
        self._server: Any = None
        self._thread: threading.Thread | None = None

    @property
    def mcp_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/mcp"

    def start(self, *, gateway_in_thread: bool = True) -> "LocalTopology":
        import uvicorn

        from ..config import Settings
        from ..gateway.app import create_app

        self.runner.start()
        settings = Settings(host="127.0.0.1", port=self.port)
        app = create_app(settings, serverless=True)  # one tenant per stack, tokens required: as deployed
        self._server = uvicorn.Server(
            uvicorn.Config(app, host="127.0.0.1", port=self.port, log_level="warning")
        )
        if gateway_in_thread:
            self._thread = threading.Thread(target=self._server.run, name="gateway", daemon=True)
            self._thread.start()
            deadline = time.monotonic() + 60
            while not self._server.started:
                if time.monotonic() > deadline or not self._thread.is_alive():
                    raise RuntimeError("the gateway did not start")
                time.sleep(0.05)
        return self

    def serve_forever(self) -> None:
        self._server.run()

    def stop(self) -> None:
        if self._server is not None:
            self._server.should_exit = True
        if self._thread is not None:
            self._thread.join(timeout=30)
        self.runner.stop()


def apply_env(env: dict[str, str]) -> None:
    """The handlers and the gateway build their services from the environment, as on Lambda."""
    os.environ.update(env)


def start_localstack(tenant: str) -> str:
    """Run localstack/start.sh (idempotent) and return the endpoint."""
    port = os.environ.get("LOCALSTACK_PORT", "4566")
    subprocess.run(
        [str(ROOT / "localstack" / "start.sh")], check=True, env={**os.environ, "HINDSIGHT_TENANT": tenant}
    )
    return f"http://127.0.0.1:{port}"


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    p.add_argument("--tenant", default=os.environ.get("HINDSIGHT_TENANT", "local"))
    p.add_argument("--port", type=int, default=int(os.environ.get("HINDSIGHT_PORT", "8765")))
    p.add_argument(
        "--schedule-every", type=float, default=300.0, help="seconds between schedule events (0: off)"
    )
    p.add_argument("--endpoint", help="use this running emulator instead of starting LocalStack")
    args = p.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(levelname)s %(message)s")

    from ..gateway.auth import create_token

    endpoint = args.endpoint or start_localstack(args.tenant)
    os.environ.setdefault("AWS_ACCESS_KEY_ID", "test")
    os.environ.setdefault("AWS_SECRET_ACCESS_KEY", "test")
    probe = TenantStack(endpoint, args.tenant, "", "")
    sqs = probe.sqs()
    names = {"store": f"hindsight-{args.tenant}-store.fifo", "reflect": f"hindsight-{args.tenant}-reflect"}
    urls = {k: sqs.get_queue_url(QueueName=name)["QueueUrl"] for k, name in names.items()}
    tokens = os.environ.get("HINDSIGHT_TOKENS")
    token = "(one of HINDSIGHT_TOKENS)"
    if not tokens:
        token, record = create_token(args.tenant, ["*"], admin=True, name="local-admin")
        tokens = json.dumps([record])
    stack = TenantStack(
        endpoint, args.tenant, urls["store"], urls["reflect"], extra_env={"HINDSIGHT_TOKENS": tokens}
    )
    apply_env(stack.env())
    topo = LocalTopology(stack, port=args.port, schedule_every_s=args.schedule_every or None)
    topo.start(gateway_in_thread=True)
    print(
        f"hindsight local serverless stack for tenant {args.tenant!r}\n"
        f"  MCP URL:  {topo.mcp_url}\n  token:    {token}\n"
        f"  emulator: {endpoint} (bucket {stack.bucket}, queues hindsight-{args.tenant}-store.fifo|reflect)\n"
        "Ctrl-C stops the runner and the gateway (LocalStack keeps running: localstack/stop.sh).",
        flush=True,
    )
    try:
        while topo._thread is not None and topo._thread.is_alive():
            topo._thread.join(timeout=1)
    except KeyboardInterrupt:
        pass
    finally:
        topo.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
