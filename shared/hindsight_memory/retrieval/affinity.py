"""A learned affinity between a question and a memory: a logistic regression over the element-wise product of the
query vector and the memory's best passage vector, i.e. a weighting of the embedding's dimensions learned from which
turns answer which questions (bench/fit_affinity.py fits it on the written conversations read for tuning). The
cosine weighs every dimension alike; which of them tell "the turn that answers this" from "a turn on the same
topic" is what the weights learn. It reorders the ranked candidates, each moved by its affinity against its rank,
after every other signal has spoken; the `missing` decision does not read it. An embedder without fitted weights
has none."""

import math

import numpy as np

from ..linear import load
from ..text import mostly_cjk
from .scoring import Candidate

USE = "recall"  # its weights' name (bench/fit_affinity.py writes them)
# A question naming a speaker of the namespace ("Where did Marcus propose?") reads it twice as far: it was fitted on
# conversations between named friends, and over user-assistant chats (BEAM) a weight of 0.6 cost more than it gave
NAMED = 2.0


def features(qvec: np.ndarray, vector: np.ndarray, passage: int) -> np.ndarray:
    best = vector[passage] if np.ndim(vector) == 2 else vector
    return np.asarray(qvec * best, dtype=np.float32)


def reorder(
    model_id: str, weight: float, query: str, qvec: np.ndarray, ordered: list[Candidate]
) -> list[Candidate]:
    """`ordered` by `weight` x affinity (its logit) minus the log of one plus the rank: a candidate far down needs
    a far stronger affinity to rise than one a place below. Only for questions in the scripts it was fitted on
    (English): over a Chinese question it found fewer English facts (generator, cross-lingual set)."""
    model = load(USE, model_id) if weight > 0 and not mostly_cjk(query) else None
    if model is None or len(ordered) < 2:
        return ordered
    keyed = []
    for rank, c in enumerate(ordered):
        a = model.logit(features(qvec, c.vector, c.passage)) if c.vector is not None else model.bias
        c.factors["affinity"] = a
        keyed.append((weight * a - math.log1p(rank), rank, c))
    keyed.sort(key=lambda t: (-t[0], t[1]))
    return [c for _, _, c in keyed]
