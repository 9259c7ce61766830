"""The single writer: group commit, failure isolation inside a batch, and convergence after a crash."""

import threading

import numpy as np
import pytest

from hindsight_memory.config import Settings
from hindsight_memory.embed.hashing import HashingEmbedder
from hindsight_memory.models import StoreRequest, utcnow
from hindsight_memory.service import build_service
from hindsight_memory.storage.lance import LanceStore
from hindsight_memory.writer.messages import PreparedItem, StoreOp, idempotency_key, memory_id
from hindsight_memory.writer.queue import InProcessQueue
from hindsight_memory.writer.writer import Writer


class PoisonAwareEmbedder(HashingEmbedder):
    """Fails on any batch containing 'POISON': a stand-in for a malformed item that breaks embedding."""

    def embed_passages(self, texts: list[str]) -> np.ndarray:
        if any("POISON" in t for t in texts):
            raise ValueError("cannot embed this item")
        return super().embed_passages(texts)


def _item(ns: str, text: str) -> PreparedItem:
    from hindsight_memory.models import MemoryCreate

    now = utcnow()
    idem = idempotency_key(ns, MemoryCreate(content=text))
    return PreparedItem(content=text, occurred_at=now, stored_at=now, idem_key=idem, id=memory_id(idem))


def test_a_failing_item_fails_alone_and_its_batch_neighbours_commit(tmp_path):
    emb = PoisonAwareEmbedder()
    store = LanceStore(str(tmp_path), model_id=emb.model_id, dim=emb.dim)
    gate = threading.Event()
    writer = Writer(store, emb)
    original = writer.apply

    def gated(ops):  # hold the first batch until every op is queued, so they share one batch
        gate.wait(5)
        return original(ops)

    writer.apply = gated
    q = InProcessQueue(writer, window_ms=200)
    try:
        futs = [
            q.submit(StoreOp(namespace="a", items=[_item("a", t)]))
            for t in ("first fine item", "POISON item", "second fine item")
        ]
        gate.set()
        assert futs[0].result(10).stored == 1 and futs[2].result(10).stored == 1
        with pytest.raises(ValueError):
            futs[1].result(10)
        assert store.count("a") == 2
    finally:
        q.close()


def test_a_batch_redelivered_after_a_crash_between_commits_converges(tmp_path):
    emb = HashingEmbedder()
    store = LanceStore(str(tmp_path), model_id=emb.model_id, dim=emb.dim)
    writer = Writer(store, emb)
    op = StoreOp(namespace="a", items=[_item("a", f"fact number {i} about the rollout") for i in range(3)])
    events_append = store.append_events
    store.append_events = lambda rows: (_ for _ in ()).throw(OSError("crash after the memories commit"))
    with pytest.raises(OSError):
        writer.apply([op])
    store.append_events = events_append
    assert store.count("a") == 3 and store.count("a", table="events") == 0
    (outcome,) = writer.apply([op])  # redelivery
    assert outcome.stored == 3 and outcome.deduplicated == 0
    assert store.count("a") == 3 and store.count("a", table="events") == 3
    (again,) = writer.apply([op])
    assert again.stored == 0 and again.deduplicated == 3


def test_many_small_stores_are_committed_in_few_batches(tmp_path):
    svc = build_service(Settings(store_uri=str(tmp_path), embedder="hashing", batch_window_ms=50))
    try:
        before = svc.store.memories.version
        for i in range(200):
            svc.store_memories(
                StoreRequest(namespace="a", items=[{"content": f"event {i} happened at minute {i}"}])
            )
        svc.flush()
        assert svc.store.count("a") == 200
        # each batch costs a handful of table versions; 200 separate commits would cost 200+
        assert svc.store.memories.version - before < 60
    finally:
        svc.close()


def test_usage_from_many_recalls_is_written_in_one_batch(tmp_path):
    from hindsight_memory.models import RecallQuery

    svc = build_service(Settings(store_uri=str(tmp_path), embedder="hashing"))
    try:
        res = svc.store_memories(
            StoreRequest(namespace="a", items=[{"content": "the release train leaves on Tuesday"}], wait=True)
        )
        svc.flush()
        before = svc.store.memories.version
        for _ in range(20):
            svc.recall(RecallQuery(namespace="a", query="when does the release train leave"))
        assert svc.store.memories.version == before, "no commit per recall"
        svc.flush()
        ((mem, _),) = svc.store.get("a", res.ids)
        assert mem.access_count == 20 and svc.store.memories.version - before <= 2
    finally:
        svc.close()
