"""A standing instruction applies to any question on its topic, not only to a request for advice: "Always highlight
changes in budget allocations when I ask about financial goals" to "What are my current financial goals for this
year?". Its condition (what follows "when I ask about") is read against the question by the query-side model; the
closest instruction at CONDITION_FLOOR or above takes the last place of the answer, so it never displaces the
results ranked for the question itself. Measured on BEAM dev (README)."""

import threading
from collections.abc import Iterable

import numpy as np

from ..embed import Embedder
from ..models import Memory
from ..standing import about_dates, asks_for_a_date, condition_of, standing_kind

CONDITION_FLOOR = 0.85  # query-side cosine of condition and question; BEAM's unrelated pairs sat at 0.77-0.83
CONDITION_POOL = 50  # standing memories read per recall (the namespace's closest to the question)
_CACHE_MAX = 4096  # condition embeddings kept per process


class Conditions:
    def __init__(self, embedder: Embedder) -> None:
        self.embedder = embedder
        self._vectors: dict[str, np.ndarray] = {}
        self._lock = threading.Lock()

    def closest(self, standing: Iterable[Memory], qvec: np.ndarray, query: str = "") -> Memory | None:
        """The instruction whose condition reads closest to the question, at the floor or above; first, one about
        how to give dates for a question asking for one."""
        best: Memory | None = None
        best_cos = 0.0
        dated = asks_for_a_date(query)  # read once per question, not per instruction
        for m in standing:
            condition = condition_of(m.content) if standing_kind(m.content) == "instruction" else ""
            if condition:
                first = 1.0 if dated and about_dates(m.content, condition) else 0.0
                cos = float(np.dot(self._vector(condition), qvec)) + first
                if cos >= CONDITION_FLOOR and (best is None or cos > best_cos):
                    best, best_cos = m, cos
        return best

    def _vector(self, condition: str) -> np.ndarray:
        with self._lock:
            vec = self._vectors.get(condition)
        if vec is None:
            vec = self.embedder.embed_query(condition)
            with self._lock:
                if len(self._vectors) >= _CACHE_MAX:
                    self._vectors.clear()
                self._vectors[condition] = vec
        return vec
