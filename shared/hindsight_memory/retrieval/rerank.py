"""Optional reranker stage. Off by default (no PyPI package ships cross-encoder weights); a hosted reranker
(Cohere, Voyage, Jina, Bedrock ...) or a self-hosted one speaking Cohere's API plugs in through litellm."""

import logging
from abc import ABC, abstractmethod

from ..config import Settings
from ..llm.lazy import litellm
from .scoring import Candidate

log = logging.getLogger(__name__)
RERANK_HEAD = 20  # how many of the fused order the reranker reads
RERANK_SHARE = 0.7  # a cross-encoder reads question and memory together: a sharper signal than the fused one


class Reranker(ABC):
    @abstractmethod
    def scores(self, query: str, documents: list[str]) -> list[float]:
        """Relevance of each document to the query, 0..1, in input order."""


class LiteLLMReranker(Reranker):
    def __init__(self, model: str, api_base: str | None = None, timeout_s: float = 5.0) -> None:
        self.model = model
        self.api_base = api_base
        self.timeout = timeout_s

    def scores(self, query: str, documents: list[str]) -> list[float]:
        extra = {"api_base": self.api_base} if self.api_base else {}
        resp = litellm().rerank(
            model=self.model, query=query, documents=documents, timeout=self.timeout, **extra
        )
        out = [0.0] * len(documents)
        for r in resp.results:
            out[int(r["index"])] = min(1.0, max(0.0, float(r["relevance_score"])))
        return out


def make_reranker(settings: Settings) -> Reranker | None:
    if not settings.reranker:
        return None
    return LiteLLMReranker(settings.reranker, settings.reranker_api_base, settings.reranker_timeout_s)


def rerank(reranker: Reranker, query: str, ordered: list[Candidate]) -> str:
    """Reorders the head of `ordered` in place, mostly by the reranker's scores: "ok", or why the fused order
    stayed (an optional stage: a provider's outage or a malformed answer must not fail the recall)."""
    head = ordered[:RERANK_HEAD]
    try:
        scores = reranker.scores(query, [c.memory.content for c in head])
        if len(scores) != len(head):
            raise ValueError(f"{len(scores)} scores for {len(head)} documents")
    except Exception as e:
        log.warning("reranker failed, fused order kept: %s", type(e).__name__)
        return f"failed ({type(e).__name__}); the fused order was kept"
    # The fused scores have no fixed scale: read on the head's own range, then mostly the reranker's, and put
    # back on that range so that the head still ranks above the rest.
    lo, hi = min(c.score for c in head), max(c.score for c in head)
    for c, s in zip(head, scores, strict=True):
        c.factors["rerank"] = s
        fused = (c.score - lo) / (hi - lo) if hi > lo else 1.0
        c.score = lo + (hi - lo) * ((1 - RERANK_SHARE) * fused + RERANK_SHARE * s)
    head.sort(key=lambda c: c.score, reverse=True)
    ordered[:RERANK_HEAD] = head
    return "ok"
