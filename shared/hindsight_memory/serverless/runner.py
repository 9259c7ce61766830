"""A local stand-in for Lambda's event sources: long-polls the tenant's SQS queues on an emulator and
delivers each batch, in the exact SQS event shape, to the same handlers the functions run; deletes what the
handler acknowledged and leaves the reported failures for redelivery (and, past maxReceiveCount, the DLQ);
and fires the schedule payloads on an interval. One poller per queue keeps the store handler a single writer."""

import importlib
import logging
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

log = logging.getLogger(__name__)

Handler = Callable[[dict[str, Any], Any], Any]

SCHEDULES: dict[str, dict[str, Any]] = {"reflect": {"trigger": "periodic"}, "compact": {"task": "compact"}}


def load_handler(function: str) -> Handler:
    """The `handler` of functions/<function>/handler.py (building its service reads the environment now)."""
    handler: Handler = importlib.import_module(f"functions.{function}.handler").handler
    return handler


@dataclass
class LocalContext:
    """The parts of Lambda's context object handlers may read."""

    function_name: str
    timeout_s: float = 900.0
    aws_request_id: str = field(default_factory=lambda: str(uuid.uuid4()))
    started: float = field(default_factory=time.monotonic)

    def get_remaining_time_in_millis(self) -> int:
        return max(0, int((self.timeout_s - (time.monotonic() - self.started)) * 1000))


@dataclass
class QueueSource:
    """An event source mapping: queue -> function, with Lambda's batch size and batching window."""

    function: str
    queue_url: str
    handler: Handler
    batch_size: int = 10
    window_s: float = 0.0
    retry_delay_s: int = 0  # visibility timeout given to failed messages before redelivery


class LocalRunner:
    def __init__(
        self,
        sqs: Any,
        sources: list[QueueSource],
        *,
        region: str = "us-east-1",
        wait_s: int = 1,
        schedules: dict[str, Handler] | None = None,
        schedule_interval_s: float | None = None,
    ) -> None:
        self.sqs = sqs
        self.sources = sources
        self.region = region
        self.wait_s = wait_s
        self.schedules = schedules or {}
        self.schedule_interval_s = schedule_interval_s
        self._arns: dict[str, str] = {}
        self._stop = threading.Event()
        self._threads: list[threading.Thread] = []

    # ---------------------------------------------------------------- one step (tests drive these directly)
    def poll_once(self, source: QueueSource, wait_s: int | None = None) -> int:
        """Receive one batch and deliver it; returns the number of messages delivered."""
        messages = self._receive(source, self.wait_s if wait_s is None else wait_s)
        if not messages:
            return 0
        event = {"Records": [self._record(source, m) for m in messages]}
        try:
            response = source.handler(event, LocalContext(source.function))
            failed = {f["itemIdentifier"] for f in (response or {}).get("batchItemFailures", [])}
        except Exception:  # noqa: BLE001 - like Lambda: a raised error returns the whole batch
            log.exception(
                "handler raised; the whole batch returns to the queue", extra={"function": source.function}
            )
            failed = {m["MessageId"] for m in messages}
        done = [m for m in messages if m["MessageId"] not in failed]
        for start in range(0, len(done), 10):
            self.sqs.delete_message_batch(
                QueueUrl=source.queue_url,
                Entries=[
                    {"Id": str(i), "ReceiptHandle": m["ReceiptHandle"]}
                    for i, m in enumerate(done[start : start + 10])
                ],
            )
        for m in messages:
            if m["MessageId"] in failed:
                self.sqs.change_message_visibility(
                    QueueUrl=source.queue_url,
                    ReceiptHandle=m["ReceiptHandle"],
                    VisibilityTimeout=source.retry_delay_s,
                )
        return len(messages)

    def drain(self, source: QueueSource, timeout_s: float = 60.0) -> int:
        """Deliver batches until the queue answers empty; returns the messages delivered."""
        deadline, total = time.monotonic() + timeout_s, 0
        while time.monotonic() < deadline:
            n = self.poll_once(source, wait_s=0)
            if n == 0:
                return total
            total += n
        raise TimeoutError(f"{source.function} queue not drained in {timeout_s} s")

    def fire(self, function: str) -> Any:
        """Invoke a scheduled function with its schedule payload, as EventBridge Scheduler does."""
        return self.schedules[function](dict(SCHEDULES[function]), LocalContext(function))

    # ---------------------------------------------------------------- background loop
    def start(self) -> None:
        for src in self.sources:
            self._spawn(f"runner-{src.function}", self._poll_loop, src)
        if self.schedules and self.schedule_interval_s:
            self._spawn("runner-schedules", self._schedule_loop)

    def stop(self, timeout_s: float = 30.0) -> None:
        self._stop.set()
        for t in self._threads:
            t.join(timeout=timeout_s)

    def _spawn(self, name: str, target: Callable[..., None], *args: Any) -> None:
        t = threading.Thread(target=target, args=args, name=name, daemon=True)
        t.start()
        self._threads.append(t)

    def _poll_loop(self, source: QueueSource) -> None:
        while not self._stop.is_set():
            try:
                self.poll_once(source)
            except Exception:  # noqa: BLE001 - an emulator hiccup must not end the poller
                log.exception("poll failed", extra={"function": source.function})
                self._stop.wait(1.0)

    def _schedule_loop(self) -> None:
        while not self._stop.wait(self.schedule_interval_s):
            for function in self.schedules:
                try:
                    self.fire(function)
                except Exception:  # noqa: BLE001 - a failed run is logged; the next tick tries again
                    log.exception("scheduled run failed", extra={"function": function})

    # ---------------------------------------------------------------- SQS shapes
    def _receive(self, source: QueueSource, wait_s: int) -> list[dict[str, Any]]:
        """Up to batch_size messages, collected for at most window_s (Lambda's MaximumBatchingWindow)."""
        out: list[dict[str, Any]] = []
        deadline = time.monotonic() + source.window_s
        wait = wait_s
        while len(out) < source.batch_size:
            got = self.sqs.receive_message(
                QueueUrl=source.queue_url,
                WaitTimeSeconds=wait,
                MaxNumberOfMessages=min(10, source.batch_size - len(out)),
                MessageSystemAttributeNames=["All"],
                MessageAttributeNames=["All"],
            )
            msgs = got.get("Messages", [])
            out += msgs
            if not msgs or time.monotonic() >= deadline:
                break
            wait = 0
        return out

    def _arn(self, url: str) -> str:
        if url not in self._arns:
            attrs = self.sqs.get_queue_attributes(QueueUrl=url, AttributeNames=["QueueArn"])
            self._arns[url] = attrs["Attributes"]["QueueArn"]
        return self._arns[url]

    def _record(self, source: QueueSource, m: dict[str, Any]) -> dict[str, Any]:
        return {
            "messageId": m["MessageId"],
            "receiptHandle": m["ReceiptHandle"],
            "body": m["Body"],
            "attributes": m.get("Attributes", {}),
            "messageAttributes": {
                k: {
                    "stringValue": v.get("StringValue"),
                    "binaryValue": v.get("BinaryValue"),
                    "stringListValues": [],
                    "binaryListValues": [],
                    "dataType": v["DataType"],
                }
                for k, v in m.get("MessageAttributes", {}).items()
            },
            "md5OfBody": m.get("MD5OfBody", ""),
            "eventSource": "aws:sqs",
            "eventSourceARN": self._arn(source.queue_url),
            "awsRegion": self.region,
        }
