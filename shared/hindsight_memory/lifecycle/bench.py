"""Bench: recall latency on a table fragmented by many single-item commits, before and after compaction."""

import random
import statistics
import time
from datetime import timedelta
from typing import Any

from ..config import Settings
from ..embed import make_embedder
from ..models import Kind, Memory, RecallQuery, Source, utcnow
from ..retrieval.recall import Retriever
from ..storage.lance import LanceStore

NS = "bench/fragments"
_WORDS = (
    "alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike november oscar papa "
    "quebec romeo sierra tango uniform victor whiskey xray yankee zulu amber cobalt indigo scarlet"
).split()


def _text(rng: random.Random, i: int) -> str:
    return f"note {i}: " + " ".join(rng.choice(_WORDS) for _ in range(8))


def _latencies(retriever: Retriever, queries: list[str]) -> tuple[dict[str, Any], list[list[str]]]:
    times, results = [], []
    for q in queries:
        t0 = time.perf_counter()
        res, ids = retriever.recall(RecallQuery(namespace=NS, query=q, top_k=10, min_score=0.0))
        times.append((time.perf_counter() - t0) * 1000)
        results.append(ids)
    times.sort()
    p99 = times[min(len(times) - 1, int(round(0.99 * (len(times) - 1))))]
    return {"p50": round(statistics.median(times), 1), "p99": round(p99, 1), "n": len(times)}, results


def bench_fragmentation(
    settings: Settings, n_commits: int = 10_000, n_queries: int = 50, seed: int = 7
) -> dict[str, Any]:
    """Write `n_commits` single-row commits straight through LanceStore (hashing vectors), measure recall
    p50/p99, run table upkeep (fragment compaction, indexes, version pruning), measure again."""
    embedder = make_embedder("hashing")
    s = settings.model_copy(update={"embedder": "hashing"})
    uri = f"{settings.store_uri.rstrip('/')}/bench-fragmentation-{utcnow():%Y%m%d%H%M%S%f}"
    store = LanceStore(
        uri,
        model_id=embedder.model_id,
        dim=embedder.dim,
        storage_options=settings.storage_options(),
        commit_retries=settings.commit_retries,
    )
    rng = random.Random(seed)
    texts = [_text(rng, i) for i in range(n_commits)]
    vectors = embedder.embed_passages(texts)
    now = utcnow()
    t0 = time.perf_counter()
    for i, (text, vec) in enumerate(zip(texts, vectors, strict=True)):
        m = Memory(
            id=f"{i:032x}",
            namespace=NS,
            kind=Kind.semantic,
            content=text,
            occurred_at=now,
            stored_at=now,
            updated_at=now,
            source=Source.tool,
            embed_model=embedder.model_id,
        )
        store.append([m], [vec])
    write_s = time.perf_counter() - t0
    store.ensure_fts_index()
    queries = [" ".join(rng.choice(_WORDS) for _ in range(3)) for _ in range(n_queries)]
    retriever = Retriever(store, embedder, s)
    frag_before = store.table_stats()["memories"]
    before, res_before = _latencies(retriever, queries)
    t0 = time.perf_counter()
    store.upkeep(
        retention=timedelta(0),
        scalar_min_rows=settings.scalar_index_min_rows,
        vector_min_rows=settings.vector_index_min_rows,
    )
    compact_s = time.perf_counter() - t0
    frag_after = store.table_stats()["memories"]
    after, res_after = _latencies(retriever, queries)
    return {
        "n_commits": n_commits,
        "uri": uri,
        "write_s": round(write_s, 1),
        "commits_per_s": round(n_commits / write_s, 1) if write_s else None,
        "fragments_before": frag_before["fragments"],
        "fragments_after": frag_after["fragments"],
        "indices_after": frag_after["indices"],
        "compact_s": round(compact_s, 1),
        "recall_ms_before": before,
        "recall_ms_after": after,
        "same_results": res_before == res_after,
    }
