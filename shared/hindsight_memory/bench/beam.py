"""`hindsight bench --quality beam PATH`: recall quality on real long conversations (BEAM), measured as a user's
agent would meet it. Each conversation goes into its own namespace through MemoryService.store_memories (what the
MCP `memory_store` tool calls), one memory per turn: content "role: text", one session per BEAM batch,
`occurred_at` from the batch's time anchor, the turn id in `metadata`. Every probing question with source turns is
then asked through recall (top_k 10, default settings) in three channel mixes; the score is the share of a
question's source turns among the top k returned memories (R@5, R@10) and the reciprocal rank of the first one."""

import hashlib
import json
import shutil
import statistics
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable
from dataclasses import asdict, dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import numpy as np

from ..config import Settings
from ..models import RecallQuery, StoreRequest
from ..service import MemoryService, build_service
from .beam_data import Conversation, Question, Turn, load_folder, turn_content
from .embed_cache import DEFAULT_CACHE_DIR, CachedEmbedder, EmbeddingCache
from .stats import table

MODES = {"hybrid": ["vector", "fts"], "bm25": ["fts"], "vector": ["vector"]}
TOP_K = 10
KS = (5, 10)
STORE_CHUNK = 100  # turns per store call (the service takes up to 500)
MANIFEST = "beam-manifest.json"


@dataclass(frozen=True)
class Answer:
    chat: str
    type: str
    index: int
    question: str
    mode: str
    sources: tuple[int, ...]
    ranked: tuple[
        tuple[int, ...], ...
    ]  # per returned memory, best first: the turn ids it holds (merged: several)
    missing: bool
    seconds: float

    def recall_at(self, k: int) -> float:
        top = {t for turns in self.ranked[:k] for t in turns}
        return sum(1 for s in self.sources if s in top) / len(self.sources)

    def reciprocal_rank(self) -> float:
        wanted = set(self.sources)
        return next((1.0 / (i + 1) for i, turns in enumerate(self.ranked) if wanted.intersection(turns)), 0.0)


def ingest(svc: MemoryService, conv: Conversation, namespace: str) -> dict[str, list[int]]:
    """Store every turn of `conv` as one memory; returns memory id -> the turn ids it holds."""
    held: dict[str, list[int]] = defaultdict(list)
    by_session: dict[int, list[Turn]] = defaultdict(list)
    for t in conv.turns:
        by_session[t.session].append(t)
    for session, turns in sorted(by_session.items()):
        for s in range(0, len(turns), STORE_CHUNK):
            part = turns[s : s + STORE_CHUNK]
            items = [
                {
                    "content": turn_content(t),
                    "session_id": f"beam-{conv.chat}-session-{session}",
                    "occurred_at": t.occurred_at,
                    "metadata": {"turn_id": t.id, "chat": conv.chat, "session": session},
                }
                for t in part
            ]
            batch = {"namespace": namespace, "items": items, "wait": True}
            res = svc.store_memories(StoreRequest.model_validate(batch), timeout_s=7200)
            for t, item_id in zip(part, res.ids, strict=True):
                held[res.duplicates_of.get(item_id, item_id)].append(t.id)
    return dict(held)


def ask(
    svc: MemoryService,
    namespace: str,
    q: Question,
    mode: str,
    now: datetime | None,
    held: dict[str, list[int]],
) -> Answer:
    query = RecallQuery(namespace=namespace, query=q.text, top_k=TOP_K, now=now, channels=MODES[mode])
    t0 = time.perf_counter()
    # The retriever, not svc.recall: the same path minus usage accounting, whose counts would carry over from
    # one run (and one channel mix) to the next and make a kept store score differently every time.
    res, _ = svc.retriever.recall(query)
    seconds = time.perf_counter() - t0
    ranked = tuple(
        tuple(int(t) for t in held.get(m.id, [m.metadata.get("turn_id")]) if t is not None)
        for m in res.memories
    )
    return Answer(q.chat, q.type, q.index, q.text, mode, q.sources, ranked, res.missing, seconds)


def question_now(conv: Conversation, how: str) -> datetime | None:
    """The `now` a recall sends. "wall": none (the server's clock, as an agent that does not set it); "last": the
    day after the conversation's last session, as an agent living in the conversation's timeline would send."""
    return None if how == "wall" else conv.last_at + timedelta(days=1)


@dataclass
class BeamReport:
    path: str
    chats: list[str]
    now: str
    n_turns: int
    ingest_seconds: float
    embedded: int  # texts the model embedded during this run's ingest (the rest came from the cache)
    answers: list[Answer]

    def cell(self, mode: str, qtype: str | None) -> dict[str, float]:
        rs = [a for a in self.answers if a.mode == mode and (qtype is None or a.type == qtype)]
        if not rs:
            return {"n": 0}
        out: dict[str, float] = {"n": len(rs)}
        for k in KS:
            out[f"r@{k}"] = statistics.fmean(a.recall_at(k) for a in rs)
        out["mrr"] = statistics.fmean(a.reciprocal_rank() for a in rs)
        out["missing"] = statistics.fmean(a.missing for a in rs)
        return out

    def types(self) -> list[str]:
        return sorted({a.type for a in self.answers})

    def latency_ms(self, mode: str = "hybrid") -> dict[str, float]:
        ms = np.array([a.seconds for a in self.answers if a.mode == mode]) * 1000
        if not len(ms):
            return {}
        return {"p50_ms": float(np.percentile(ms, 50)), "p95_ms": float(np.percentile(ms, 95)), "n": len(ms)}

    def table(self) -> str:
        modes = [m for m in MODES if any(a.mode == m for a in self.answers)]
        header = ["question type", "n"] + [f"{m} {c}" for m in modes for c in ("R@5", "R@10", "MRR")]
        rows = []
        for qtype in [*self.types(), None]:
            cells = [self.cell(m, qtype) for m in modes]
            rows.append(
                [qtype or "all", int(cells[0]["n"])] + [c[k] for c in cells for k in ("r@5", "r@10", "mrr")]
            )
        lat = self.latency_ms()
        title = (
            f"recall on BEAM conversations {','.join(self.chats)} ({self.n_turns:,} turns, "
            f"{sum(1 for a in self.answers if a.mode == modes[0])} questions; top_k {TOP_K}, now={self.now}); "
            f"hybrid recall p50 {lat.get('p50_ms', 0):.1f} ms, p95 {lat.get('p95_ms', 0):.1f} ms; "
            f"ingest {self.ingest_seconds:.0f} s ({self.embedded:,} texts embedded, the rest from the cache)"
        )
        return table(title, header, rows)

    def to_dict(self) -> dict[str, Any]:
        modes = sorted({a.mode for a in self.answers})
        return {
            "path": self.path,
            "chats": self.chats,
            "now": self.now,
            "turns": self.n_turns,
            "ingest_seconds": round(self.ingest_seconds, 1),
            "embedded": self.embedded,
            "latency_ms": {m: self.latency_ms(m) for m in modes},
            "scores": {m: {t or "all": self.cell(m, t) for t in [*self.types(), None]} for m in modes},
            "answers": [asdict(a) for a in self.answers],
        }


def _fingerprint(conv: Conversation) -> str:
    h = hashlib.sha256()
    for t in conv.turns:
        h.update(f"{t.id}\x00{t.session}\x00{t.occurred_at.isoformat()}\x00{turn_content(t)}\x00".encode())
    return h.hexdigest()[:16]


def run(
    path: str,
    *,
    chats: list[str] | None = None,
    reuse: str | None = None,
    cache_dir: str | None = None,
    now: str = "last",
    modes: tuple[str, ...] = tuple(MODES),
    progress: Callable[[str], None] | None = None,
    **settings_overrides: Any,
) -> BeamReport:
    """Ingest (or, with `reuse`, keep what an earlier run ingested there) and ask every question."""
    convs = load_folder(path, chats)
    store_dir = reuse or tempfile.mkdtemp(prefix="hs-beam-")
    settings = Settings(store_uri=str(Path(store_dir) / "data"), **settings_overrides)
    cache = EmbeddingCache(cache_dir or DEFAULT_CACHE_DIR)
    from ..embed import embedder_for

    embedder = CachedEmbedder(embedder_for(settings), cache)
    svc = build_service(settings, embedder=embedder)
    manifest_file = Path(store_dir) / MANIFEST
    manifest = json.loads(manifest_file.read_text()) if manifest_file.is_file() else {}
    if manifest and manifest.get("embedder") != embedder.model_id:
        raise ValueError(f"{store_dir} was ingested with {manifest.get('embedder')}, not {embedder.model_id}")
    manifest.setdefault("embedder", embedder.model_id)
    done = manifest.setdefault("chats", {})
    answers: list[Answer] = []
    t0 = time.perf_counter()
    try:
        for conv in convs:
            ns = f"beam/{conv.chat}"
            fp = _fingerprint(conv)
            if done.get(conv.chat, {}).get("fingerprint") != fp:
                held = ingest(svc, conv, ns)
                done[conv.chat] = {"namespace": ns, "fingerprint": fp, "held": held}
                if reuse:
                    manifest_file.write_text(json.dumps(manifest))
                if progress:
                    progress(f"ingested chat {conv.chat}: {len(conv.turns)} turns")
        svc.flush()
        ingest_seconds = time.perf_counter() - t0
        for conv in convs:
            ns, held = done[conv.chat]["namespace"], done[conv.chat]["held"]
            when = question_now(conv, now)
            for mode in modes:
                for q in conv.questions:
                    answers.append(ask(svc, ns, q, mode, when, held))
            if progress:
                progress(f"asked chat {conv.chat}: {len(conv.questions)} questions")
    finally:
        svc.close()
        cache.close()
        if not reuse:
            shutil.rmtree(store_dir, ignore_errors=True)
    return BeamReport(
        path=str(path),
        chats=[c.chat for c in convs],
        now=now,
        n_turns=sum(len(c.turns) for c in convs),
        ingest_seconds=ingest_seconds,
        embedded=embedder.misses,
        answers=answers,
    )
