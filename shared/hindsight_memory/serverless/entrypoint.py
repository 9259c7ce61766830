"""The image's entrypoint outside Lambda (inside Lambda the Dockerfile's switch hands the command to the
runtime interface client instead). The same command that names a handler on Lambda picks a long-running role:

    functions.gateway.handler.handler | functions.recall.handler.handler | gateway  -> gateway under uvicorn
    functions.store.handler.handler   | worker store                               -> store queue consumer
    functions.reflect.handler.handler | worker reflect                             -> reflect queue consumer
    functions.compact.handler.handler | run compact  (and: run reflect)            -> one scheduled run, then exit
"""

import logging
import os
import re
import signal
import sys

_HANDLER = re.compile(r"^functions\.(\w+)\.handler\.handler$")
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
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(levelname)s %(message)s")
    if role == "gateway":
        from ..config import Settings
        from ..gateway.app import serve
        from .settings import for_function

        serve(for_function(Settings(), "gateway"))
        return 0
    from .runner import SCHEDULES, LocalContext, LocalRunner, QueueSource, load_handler

    assert function is not None  # every role but the gateway names its function (see plan)
    handler = load_handler(function)
    if role == "run":
        print(handler(dict(SCHEDULES[function]), LocalContext(function)), flush=True)
        return 0
    import boto3

    url = os.environ[f"HINDSIGHT_{function.upper()}_QUEUE_URL"]
    # One consumer per queue: run a single replica of the store worker (it is the tenant's only writer).
    runner = LocalRunner(boto3.client("sqs"), [QueueSource(function, url, handler)], wait_s=20)
    signal.signal(signal.SIGTERM, lambda *_: runner.stop(timeout_s=0))
    runner.start()
    for t in runner._threads:
        while t.is_alive():
            t.join(timeout=1)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
