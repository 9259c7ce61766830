"""Write queues. Callers submit operations; one writer applies them in batches.

`InProcessQueue` (embedded mode) runs the writer on a thread of this process. `SqsQueue` (serverless) sends the
same messages to SQS, where the store function is the single consumer. Both carry the same JSON messages.
`SqsTriggerQueue` sends reflection requests to the reflect function."""

import hashlib
import json
import logging
import queue
import threading
import time
from abc import ABC, abstractmethod
from concurrent.futures import Future
from typing import Any

from ..errors import LimitExceeded, QueueUnavailable
from .journal import MAX_ATTEMPTS, Journal
from .messages import OPS, ForgetOp, StoreOp, WriteOp
from .writer import Writer

log = logging.getLogger(__name__)

# A queue's default MaximumMessageSize (AWS allows raising it to 1 MiB; 256 KiB works on every queue).
SQS_MAX_MESSAGE_BYTES = 262_144
# Every write of a tenant goes to one message group of its FIFO store queue: SQS then hands out a group's next
# batch only once the previous one is deleted, which is what keeps one writer at a time.
WRITER_GROUP = "writer"


class WriteQueue(ABC):
    @abstractmethod
    def submit(self, op: WriteOp) -> Future[Any] | None:
        """Enqueue; a Future[Any] resolves with the op's outcome when this queue can tell (in-process), else None."""

    def depth(self) -> int:
        return 0

    def waiting(self, namespace: str) -> tuple[set[str], set[str]] | None:
        """Store items of `namespace` acknowledged but not applied, and given up on; None when this queue cannot
        tell (no journal, or a remote queue)."""
        return None

    def close(self) -> None:  # noqa: B027 - optional hook: queues without local state have nothing to flush
        """Flush what is queued and stop."""


class InProcessQueue(WriteQueue):
    """Group commit on a background thread: drain up to `max_items` ops or wait `window_ms`, apply, resolve.

    With a journal (writer/journal.py), a store op is on disk before `submit` returns, so an acknowledged store
    survives the process being killed: the next InProcessQueue on the same journal directory replays it. Other
    ops are not journaled: their callers wait for the outcome (usage counts are best effort)."""

    def __init__(
        self, writer: Writer, *, max_items: int = 256, window_ms: int = 20, journal: Journal | None = None
    ) -> None:
        self.writer = writer
        self.journal = journal
        self._q: queue.Queue[tuple[WriteOp, Future[Any], int | None] | None] = queue.Queue()
        self._max = max_items
        self._window = window_ms / 1000
        self._thread = threading.Thread(target=self._run, name="hindsight-writer", daemon=True)
        self._closed = False
        self.replayed = self._replay() if journal is not None else 0
        self._thread.start()

    def waiting(self, namespace: str) -> tuple[set[str], set[str]] | None:
        return self.journal.waiting(namespace) if self.journal is not None else None

    def _replay(self) -> int:
        """Queue what earlier processes acknowledged but did not commit (before any new op)."""
        assert self.journal is not None
        self.journal.adopt_orphans()
        entries = self.journal.pending()
        for seq, body in entries:
            self._q.put((decode(body), Future(), seq))
        if entries:
            log.warning("replaying acknowledged writes from the journal", extra={"ops": len(entries)})
        return len(entries)

    def submit(self, op: WriteOp) -> Future[Any]:
        """Queue `op`; a store op is journaled first.

        Raises:
            JournalUnavailable: the journal could not record a store op (it is not queued).
        """
        if self._closed:
            raise RuntimeError("write queue is closed")
        fut: Future[Any] = Future()
        seq = (
            self.journal.append(encode(op)) if self.journal is not None and isinstance(op, StoreOp) else None
        )
        self._q.put((op, fut, seq))
        return fut

    def depth(self) -> int:
        return self._q.qsize()

    def close(self) -> None:
        if not self._closed:
            self._closed = True
            self._q.put(None)
            self._thread.join(timeout=60)
            if self.journal is not None and not self._thread.is_alive():
                self.journal.close()

    def _run(self) -> None:
        while True:
            first = self._q.get()
            if first is None:
                return
            batch = [first]
            deadline = time.monotonic() + self._window
            stop = False
            while len(batch) < self._max:
                try:
                    nxt = self._q.get(timeout=max(0.0, deadline - time.monotonic()))
                except queue.Empty:
                    break
                if nxt is None:
                    stop = True
                    break
                batch.append(nxt)
            self._apply(batch)
            if stop:
                return

    def _apply(self, batch: list[tuple[WriteOp, Future[Any], int | None]]) -> None:
        try:
            results = self.writer.apply([op for op, _, _ in batch])
        except Exception:
            # One bad op must not fail its neighbours: retry one by one, failing only what fails alone.
            log.exception("batch commit failed; applying ops one by one")
            for op, fut, seq in batch:
                try:
                    fut.set_result(self.writer.apply([op])[0])
                except Exception as exc:  # noqa: BLE001 - handed to the waiting caller
                    if self.journal is not None and seq is not None:
                        self._retry_later(op, seq, exc)
                    fut.set_exception(exc)
                else:
                    self._committed([seq], [op])
            return
        self._committed([seq for _, _, seq in batch], [op for op, _, _ in batch])
        for (_, fut, _), res in zip(batch, results, strict=True):
            fut.set_result(res)

    def _retry_later(self, op: WriteOp, seq: int, exc: Exception) -> None:
        """An acknowledged op failed: it stays in the journal and is tried again after a pause (and at the next
        start), up to journal.MAX_ATTEMPTS times; then it is kept in the journal, no longer tried."""
        assert self.journal is not None
        attempts = self.journal.failed(seq, f"{type(exc).__name__}: {exc}")
        if attempts < MAX_ATTEMPTS and not self._closed:
            timer = threading.Timer(min(60.0, 2.0**attempts), self._q.put, args=((op, Future(), seq),))
            timer.daemon = True
            timer.start()

    def _committed(self, seqs: list[int | None], ops: list[WriteOp]) -> None:
        if self.journal is None:
            return
        self.journal.done(s for s in seqs if s is not None)
        if any(isinstance(op, ForgetOp) and op.purge for op in ops):
            self.journal.scrub()  # a purged text must not stay readable in the journal's files


class SqsQueue(WriteQueue):
    """Sends ops to the tenant's store queue; the store function (one consumer) applies them. On a FIFO queue
    (the deployed one) every op goes to the writer's message group, deduplicated by its content."""

    def __init__(
        self, queue_url: str, client: Any = None, *, max_message_bytes: int = SQS_MAX_MESSAGE_BYTES
    ) -> None:
        import boto3

        self.url = queue_url
        self._sqs = client or boto3.client("sqs")
        self._max_bytes = max_message_bytes
        self.fifo = queue_url.endswith(".fifo")

    def submit(self, op: WriteOp) -> None:
        """Raises:
        LimitExceeded: an item does not fit in a message.  QueueUnavailable: SQS did not take a message.
        """
        for body in split_encode(op, self._max_bytes):
            _send(self._sqs, self.url, body, fifo_fields(body, self.fifo))
        return None

    def depth(self) -> int:
        attrs = self._sqs.get_queue_attributes(
            QueueUrl=self.url, AttributeNames=["ApproximateNumberOfMessages"]
        )
        return int(attrs["Attributes"]["ApproximateNumberOfMessages"])


class SqsTriggerQueue:
    """Sends reflection requests (JSON objects) to the tenant's reflect queue."""

    def __init__(
        self, queue_url: str, client: Any = None, *, max_message_bytes: int = SQS_MAX_MESSAGE_BYTES
    ) -> None:
        import boto3

        self.url = queue_url
        self._sqs = client or boto3.client("sqs")
        self._max_bytes = max_message_bytes

    def send(self, payload: dict[str, Any]) -> None:
        """Raises:
        LimitExceeded: the request does not fit in one message.  QueueUnavailable: SQS did not take it.
        """
        body = json.dumps(payload, ensure_ascii=False, default=str)
        if len(body.encode()) > self._max_bytes:
            raise LimitExceeded(
                f"this reflection request is {len(body.encode())} bytes, over the queue's {self._max_bytes}: store "
                "the trajectory with memory_store under a session_id and reflect on the session instead"
            )
        _send(self._sqs, self.url, body, fifo_fields(body, self.url.endswith(".fifo")))


class StoreQueueControl:
    """What the store consumer asks of its own queue: set a message that can never apply aside in the DLQ, and
    bring a returned message back after a delay of its choosing."""

    def __init__(self, queue_url: str, dlq_url: str | None = None, client: Any = None) -> None:
        import boto3

        self.url, self.dlq_url = queue_url, dlq_url
        self._sqs = client or boto3.client("sqs")

    @property
    def can_dead_letter(self) -> bool:
        return self.dlq_url is not None

    def dead_letter(self, body: str, message_id: str, reason: str) -> None:
        assert self.dlq_url is not None
        self._sqs.send_message(
            QueueUrl=self.dlq_url,
            MessageBody=body,
            MessageAttributes={
                "reason": {"DataType": "String", "StringValue": reason[:1000]},
                "source_message_id": {"DataType": "String", "StringValue": message_id},
            },
            **fifo_fields(body, self.dlq_url.endswith(".fifo")),
        )

    def retry_later(self, receipt_handle: str, seconds: int) -> None:
        """Best effort: if it fails, the message comes back after the queue's visibility timeout anyway."""
        try:
            self._sqs.change_message_visibility(
                QueueUrl=self.url, ReceiptHandle=receipt_handle, VisibilityTimeout=seconds
            )
        except Exception as exc:  # noqa: BLE001 - an expired or foreign receipt handle; nothing is lost
            log.warning("could not reschedule a returned message", extra={"error": type(exc).__name__})


def _send(sqs: Any, url: str, body: str, extra: dict[str, str]) -> None:
    from botocore.exceptions import BotoCoreError, ClientError

    try:
        sqs.send_message(QueueUrl=url, MessageBody=body, **extra)
    except (BotoCoreError, ClientError) as exc:
        raise QueueUnavailable(f"the queue did not take the message ({type(exc).__name__})") from exc


def fifo_fields(body: str, fifo: bool) -> dict[str, str]:
    """A FIFO queue's message group and deduplication id (a resend of the same body within SQS's 5-minute window
    is dropped; the writer is idempotent anyway)."""
    if not fifo:
        return {}
    return {
        "MessageGroupId": WRITER_GROUP,
        "MessageDeduplicationId": hashlib.sha256(body.encode()).hexdigest(),
    }


def encode(op: WriteOp) -> str:
    return OPS.dump_json(op).decode()


def split_encode(op: WriteOp, max_bytes: int = SQS_MAX_MESSAGE_BYTES) -> list[str]:
    """Encode `op` as one message, or a store op as several whose items together are the original items.
    Each item keeps its own id and idempotency key, so the parts commit independently and idempotently.

    Raises:
        LimitExceeded: a single item (or a non-store op) does not fit in one message.
    """
    body = encode(op)
    if len(body.encode()) <= max_bytes:
        return [body]
    if not isinstance(op, StoreOp) or len(op.items) < 2:
        raise LimitExceeded(
            f"a {op.op} message of {len(body.encode())} bytes exceeds the queue limit of {max_bytes}"
        )
    half = len(op.items) // 2
    return [
        part
        for items in (op.items[:half], op.items[half:])
        for part in split_encode(op.model_copy(update={"items": items}), max_bytes)
    ]


def decode(body: str | bytes) -> WriteOp:
    return OPS.validate_json(body)
