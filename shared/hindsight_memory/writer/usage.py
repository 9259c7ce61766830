"""Usage counts from recall, batched: one write per namespace every few seconds rather than one per recall, so a
busy reader does not turn every recall into a commit."""

import logging
import threading
import time
from collections import Counter

from ..errors import QueueUnavailable
from ..models import utcnow
from .messages import TouchOp
from .queue import WriteQueue

log = logging.getLogger(__name__)

FLUSH_S = 5.0  # usage counts reach storage at most this late (or sooner, on flush/close)
FLUSH_IDS = 500


class UsageBuffer:
    def __init__(self, queue: WriteQueue) -> None:
        self._queue = queue
        self._counts: dict[str, Counter[str]] = {}
        self._flushed_at = time.monotonic()
        self._lock = threading.Lock()

    def add(self, namespace: str, ids: list[str]) -> None:
        """Count one use of each id; send the batch when it is due."""
        with self._lock:
            self._counts.setdefault(namespace, Counter()).update(ids)
            pending = sum(len(v) for v in self._counts.values())
            due = time.monotonic() - self._flushed_at >= FLUSH_S or pending >= FLUSH_IDS
        if due:
            self.flush()

    def flush(self) -> None:
        """Send the buffered counts now (serverless handlers call it at the end of every invocation: a sandbox
        may be frozen or recycled before the next recall would have sent them)."""
        with self._lock:
            if not self._counts:
                return
            batch, self._counts, self._flushed_at = self._counts, {}, time.monotonic()
        for ns, counts in batch.items():
            try:
                self._queue.submit(
                    TouchOp(namespace=ns, ids=sorted(counts), counts=dict(counts), at=utcnow())
                )
            except QueueUnavailable:  # usage counts never fail a request: kept for the next flush
                log.warning("usage counts not sent; kept for the next flush", exc_info=True)
                with self._lock:
                    self._counts.setdefault(ns, Counter()).update(counts)
