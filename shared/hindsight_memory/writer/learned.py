"""A learned second reader of two statements the rules call different facts (writer/facts.py): the probability that
they are one fact said twice, from the embeddings the writer already has. A logistic regression over the two
texts' passage vectors and query-side vectors (their products and absolute differences, the standard head over a
pair of sentence embeddings) and the two cosines, fitted on labelled pairs (bench/fit_reader.py) for one embedder;
an embedder without fitted weights has no second reader and the rules alone decide.

It is consulted only where no rule found a sign of another fact or of a change (no number, negation, direction or
change word differs) and the rules found no rewording either: "The production database is PostgreSQL 15." / "We
run Postgres 15 for the prod DB.", 我妈住在成都。/ 用户的母亲住在四川成都。, whose words differ too much for the rules to
call them one fact."""

from collections.abc import Callable

import numpy as np

from ..linear import load

USE = "pairs"  # its weights' name (bench/fit_reader.py writes them)


def features(pa: np.ndarray, pb: np.ndarray, qa: np.ndarray, qb: np.ndarray) -> np.ndarray:
    """Passage vectors `pa`, `pb` and query-side vectors `qa`, `qb` of the old and new text, all unit length."""
    cos, sharp = float(np.dot(pa, pb)), float(np.dot(qa, qb))
    return np.concatenate([qa * qb, np.abs(qa - qb), pa * pb, np.abs(pa - pb), [cos, sharp]]).astype(
        np.float32
    )


def one_fact(
    model_id: str, pa: np.ndarray, pb: np.ndarray, query_side: Callable[[], tuple[np.ndarray, np.ndarray]]
) -> float:
    """The probability that two statements are one fact; 0 without fitted weights for the model, or where either
    memory is split into passages (the reader was fitted on whole statements). `query_side()` gives the two texts'
    query-side vectors, embedded only when the reader reads them."""
    reader = load(USE, model_id)
    if reader is None or np.ndim(pa) != 1 or np.ndim(pb) != 1:
        return 0.0
    return reader.probability(features(pa, pb, *query_side()))
