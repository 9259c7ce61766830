"""Scoring candidate lessons: novelty against existing memories (by embedding), reusability and causal relevance
(from the LLM), a bonus for anomalous episodes; then the verdict: insert, merge into a near-identical lesson, or
reject. Scores are kept with the lesson so recall's explain can show why it was kept."""

import re
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..embed import Embedder
from ..models import Kind, Memory, Status
from ..storage.filters import Where
from ..storage.lance import LanceStore

W_NOVELTY, W_REUSE, W_CAUSAL = 0.3, 0.35, 0.35


@dataclass
class Verdict:
    text: str
    scores: dict[str, float]
    decision: str  # insert | merge | reject
    reason: str
    match: Memory | None = None  # the near-identical lesson (merge) or the closest one
    vector: Any = None
    extra: dict[str, Any] = field(default_factory=dict[str, Any])


def merge_cosine(embedder: Embedder) -> float:
    """Closer than this to an existing lesson = the same lesson said again (a confirmation, not a new one)."""
    c = embedder.calibration
    return c.related + 0.6 * (c.duplicate - c.related)


def nearest_lessons(
    store: LanceStore, ns: str, vectors: np.ndarray, limit: int = 1
) -> list[list[tuple[Memory, float, Any]]]:
    """The closest active semantic memories to each vector."""
    return [
        store.vector_search(
            ns, v, Where(ns).enum_in("status", [Status.active]).enum_in("kind", [Kind.semantic]), limit
        )
        for v in vectors
    ]


def judge(
    store: LanceStore,
    embedder: Embedder,
    ns: str,
    texts: list[str],
    reuse: list[float],
    causal: list[float],
    anomaly_bonus: float,
    threshold: float,
    find_opposites: bool = False,
) -> list[Verdict]:
    """One verdict per candidate, in order; later candidates also compete with the ones kept before them.
    `find_opposites` (rule lessons, where no LLM names contradictions): a candidate saying the opposite of its
    nearest lesson is kept beside it to compete on confidence, instead of confirming it."""
    if not texts:
        return []
    vecs = embedder.embed_passages(texts)
    near = nearest_lessons(store, ns, vecs)
    merge_cos = merge_cosine(embedder)
    kept: list[np.ndarray] = []
    out = []
    for text, v, hits, r, c in zip(texts, vecs, near, reuse, causal, strict=True):
        match, cos = (hits[0][0], hits[0][1]) if hits else (None, 0.0)
        batch_cos = max((float(np.dot(v, k)) for k in kept), default=0.0)
        novelty = 1.0 - embedder.relevance(max(cos, batch_cos))
        bonus = anomaly_bonus * c  # a lesson tied to what went wrong weighs more
        score = min(1.0, W_NOVELTY * novelty + W_REUSE * r + W_CAUSAL * c + bonus)
        confirm = min(1.0, 0.5 * (r + c) + bonus)  # a repeated lesson is judged on its value, not its novelty
        scores = {
            "novelty": round(novelty, 3),
            "reusability": round(r, 3),
            "causal_relevance": round(c, 3),
            "anomaly_bonus": round(bonus, 3),
            "score": round(score, 3),
            "threshold": threshold,
            "nearest_cosine": round(cos, 4),
        }
        opposite = Verdict(text, scores, "insert", "", match, v, {"opposes": True}) if match else None
        if find_opposites and opposite is not None and opposes(opposite, embedder):
            scores["confirmation"] = round(confirm, 3)
            if confirm >= threshold:
                opposite.reason = (
                    "says the opposite of an existing lesson: kept beside it, competing on confidence"
                )
                kept.append(v)
                out.append(opposite)
                continue
        if batch_cos >= merge_cos:
            out.append(
                Verdict(text, scores, "reject", "repeats a lesson proposed earlier in this run", vector=v)
            )
        elif match is not None and cos >= merge_cos:
            scores["confirmation"] = round(confirm, 3)
            if confirm >= threshold:
                out.append(
                    Verdict(
                        text, scores, "merge", "near-identical to an existing lesson: confirms it", match, v
                    )
                )
            else:
                out.append(
                    Verdict(
                        text, scores, "reject", "repeats an existing lesson and adds too little", match, v
                    )
                )
        elif score >= threshold:
            kept.append(v)
            out.append(
                Verdict(text, scores, "insert", f"score {score:.2f} >= threshold {threshold:.2f}", match, v)
            )
        else:
            out.append(
                Verdict(text, scores, "reject", f"score {score:.2f} < threshold {threshold:.2f}", match, v)
            )
    return out


_NEGATION = re.compile(r"\b(never|not|no|don'?t|do not|avoid|stop)\b|不要|别|不|没|避免|禁止", re.IGNORECASE)


def opposes(v: Verdict, embedder: Embedder) -> bool:
    """A rule lesson says the opposite of its nearest existing lesson: about the same thing (closer than halfway
    from "related" to "merge") with the negation on one side only ("always X" vs "never X"). Used where no LLM
    names contradictions: the new lesson then competes with the old one on confidence."""
    if v.match is None:
        return False
    c = embedder.calibration
    close = v.scores["nearest_cosine"] >= c.related + 0.5 * (merge_cosine(embedder) - c.related)
    return close and bool(_NEGATION.search(v.text)) != bool(_NEGATION.search(v.match.content))
