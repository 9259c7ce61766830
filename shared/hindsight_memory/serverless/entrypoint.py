"""The image's entrypoint outside Lambda (inside Lambda the Dockerfile's switch hands the command to the
runtime interface client instead). The same command that names a handler on Lambda picks a long-running role:

    functions.gateway.handler.handler | functions.recall.handler.handler | gateway  -> gateway under uvicorn
    functions.store.handler.handler   | worker store                               -> store queue consumer
    functions.reflect.handler.handler | worker reflect                             -> reflect queue consumer
    functions.compact.handler.handler | run compact  (and: run reflect)            -> one scheduled run, then exit
"""

import os
import re
import signal
import sys
from typing import Any

_HANDLER = re.compile(r"^functions\.(\w+)\.handler\.handler$")
VISIBILITY_MARGIN_S = 15.0
WORKER_POLL_S = 5  # long-poll wait of a container worker (short enough to stop and release the lease quickly)
ROLES = {
    "gateway": ("gateway", None),
    "recall": ("gateway", None),
    "store": ("worker", "store"),
    "reflect": ("worker", "reflect"),
    "compact": ("run", "compact"),
}


def plan(argv: list[str]) -> tuple[str, str | None]:
    """(role, function) for a container command.

    Raises:
        SystemExit: an unknown command (with the usage).
    """
    if len(argv) == 1 and (m := _HANDLER.match(argv[0])) and m.group(1) in ROLES:
        return ROLES[m.group(1)]
    if argv == ["gateway"]:
        return "gateway", None
    if len(argv) == 2 and argv[0] == "worker" and argv[1] in ("store", "reflect"):
        return "worker", argv[1]
    if len(argv) == 2 and argv[0] == "run" and argv[1] in ("compact", "reflect"):
        return "run", argv[1]
    raise SystemExit(f"unknown command {' '.join(argv)!r}\n{__doc__}")


def main(argv: list[str] | None = None) -> int:
    role, function = plan(sys.argv[1:] if argv is None else argv)
    from ..gateway.logs import configure_logging

    configure_logging()  # JSON lines on stderr, as on Lambda
    if role == "gateway":
        from ..gateway.app import serve
        from .settings import load_settings

        # One tenant per container, as per function: its tables are HINDSIGHT_STORE_URI itself (the store
        # worker writes there too), tokens come from the environment or the tenant secret.
        serve(load_settings(function="gateway"), serverless=True)
        return 0
    from .runner import SCHEDULES, LocalContext, LocalRunner, load_handler

    assert function is not None  # every role but the gateway names its function (see plan)
    handler = load_handler(function)
    if role == "run":
        print(handler(dict(SCHEDULES[function]), LocalContext(function)), flush=True)
        return 0
    import boto3

    sqs = boto3.client("sqs")
    url = os.environ[f"HINDSIGHT_{function.upper()}_QUEUE_URL"]
    source, lease = worker_source(sqs, function, url, handler)
    runner = LocalRunner(sqs, [source], wait_s=WORKER_POLL_S)
    signal.signal(signal.SIGTERM, lambda *_: runner.stop(timeout_s=0))
    runner.start()
    for t in runner._threads:
        while t.is_alive():
            t.join(timeout=1)
    if lease is not None:
        lease.release()  # a standby worker takes over at once rather than after the lease expires
    return 0


def worker_source(sqs: Any, function: str, url: str, handler: Any, s3: Any = None) -> tuple[Any, Any]:
    """The queue as a container worker consumes it, and the writer lease a store worker must hold.

    A batch must be done before its visibility timeout would hand it to another consumer, so the handler's time
    budget is that timeout (minus a margin). Several store workers may run (a rolling deploy starts the new one
    first): the FIFO store queue hands out one batch at a time, and only the worker holding the writer lease
    (an S3 object written with conditional requests, renewed before each receive) polls at all; the others
    wait until it is released or expires."""
    from .lease import WriterLease
    from .runner import QueueSource

    attrs = sqs.get_queue_attributes(QueueUrl=url, AttributeNames=["VisibilityTimeout"])["Attributes"]
    visibility = float(attrs["VisibilityTimeout"])
    budget = max(10.0, visibility - VISIBILITY_MARGIN_S)
    lease = None
    store_uri = os.environ.get("HINDSIGHT_STORE_URI", "")
    if function == "store" and store_uri.startswith("s3://"):
        # Held across one receive (its long poll) and the batch it returns, with a margin.
        lease = WriterLease(store_uri, ttl_s=WORKER_POLL_S + visibility + VISIBILITY_MARGIN_S, client=s3)
    source = QueueSource(
        function,
        url,
        handler,
        batch_size=10,
        retry_delay_s=None,
        timeout_s=budget,
        gate=None if lease is None else _standby_logged(lease),
    )
    return source, lease


def _standby_logged(lease: Any) -> Any:
    """lease.hold, logging when this worker starts waiting and when it becomes the writer."""
    import logging

    log = logging.getLogger(__name__)
    state: dict[str, bool | None] = {"held": None}

    def gate() -> bool:
        held = bool(lease.hold())
        if held != state["held"]:
            state["held"] = held
            if held:
                log.info("writer lease held: this worker writes", extra={"owner": lease.owner})
            else:
                log.info("another worker holds the writer lease: waiting", extra={"owner": lease.owner})
        return held

    return gate


if __name__ == "__main__":
    raise SystemExit(main())
