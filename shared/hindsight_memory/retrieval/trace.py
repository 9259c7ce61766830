"""What `explain` says of one candidate: its ranks, raw scores and factors, a one-line reason, and the passage
that matched."""

from typing import Any

from ..embed.passages import with_context
from .scoring import Candidate


def trace(c: Candidate) -> dict[str, Any]:
    """How one candidate was scored: each channel's rank and raw score, the factors, and a one-line reason."""
    return {
        "id": c.memory.id,
        **({"via": c.via} if c.via else {}),
        "score": round(c.score, 4),
        "ranks": c.ranks,
        "raw": {k: round(v, 4) for k, v in c.raw.items()},
        "factors": {k: round(v, 4) for k, v in c.factors.items()},
        "why": _why(c),
        **_passage(c),
    }


def _why(c: Candidate) -> str:
    parts = [f"{ch} rank {r}" for ch, r in sorted(c.ranks.items())]
    if "neighbour" in c.factors:
        parts.append("adjacent turn also matched")
    if c.via:
        parts.append(f"found through {c.via}, which it replaced")
    if with_context(c.memory.passages, c.passage):
        parts.append("matched with the question it answers")
    if c.factors["decay"] < 0.99:
        parts.append(f"time decay {c.factors['decay']:.2f}")
    parts.append(f"relevance {c.factors['relevance']:.2f}")
    return "; ".join(parts)


def _passage(c: Candidate) -> dict[str, Any]:
    """For a memory with several vectors: which one matched the query best, where it is, and its text. A reply
    embedded alone and with the question it answers (embed/passages.py) has two spans over the whole content."""
    spans = c.memory.passages
    if not spans or c.passage >= len(spans):
        return {}
    span = spans[c.passage]
    return {
        "passage": {
            "index": c.passage,
            "of": len(spans),
            "chars": list(span),
            "text": c.memory.content[span[0] : span[1]],
            **({"with": "the question it answers"} if with_context(spans, c.passage) else {}),
        }
    }
