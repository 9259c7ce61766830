"""A standing instruction applies to any question on its topic, not only to a request for advice: "Always highlight
changes in budget allocations when I ask about financial goals" to "What are my current financial goals for this
year?". Its condition (what follows "when I ask about") is read against the question by the query-side model; the
closest instruction at CONDITION_FLOOR or above (with any other made for the same topic) takes the last place of
the answer, so it never displaces the results ranked for the question itself. A question asking for a date takes
the instructions on how to give dates first, two of them where there are several ("Always format dates as ..."
and "Always confirm dates and times ..." both hold for "the date of the workshop"), in the last two places.
Measured on BEAM dev (docs/benchmarks.md)."""

import threading
from collections.abc import Iterable

import numpy as np

from ..embed import Embedder
from ..models import Memory
from ..standing import about_dates, asks_for_a_date, condition_of, standing_kind

CONDITION_FLOOR = 0.85  # query-side cosine of condition and question; BEAM's unrelated pairs sat at 0.77-0.83
CONDITION_POOL = 50  # standing memories read per recall (the namespace's closest to the question)
DATED_MAX = 2  # instructions on how to give dates that join a question asking for one
_CACHE_MAX = 4096  # condition embeddings kept per process


class Conditions:
    def __init__(self, embedder: Embedder) -> None:
        self.embedder = embedder
        self._vectors: dict[str, np.ndarray] = {}
        self._lock = threading.Lock()

    def applying(self, standing: Iterable[Memory], qvec: np.ndarray, query: str = "") -> list[Memory]:
        """The instruction whose condition reads closest to the question, at the floor or above, and the others made
        for the same topic (the same condition, "when I ask about sneaker features"); for a question
        asking for a date, the instructions about how to give dates instead, the closest first (DATED_MAX)."""
        best: Memory | None = None
        best_cos, best_condition = 0.0, ""
        dated: list[tuple[float, Memory]] = []
        by_condition: dict[str, list[Memory]] = {}
        asks_date = asks_for_a_date(query)  # read once per question, not per instruction
        for m in standing:
            condition = condition_of(m.content) if standing_kind(m.content) == "instruction" else ""
            if condition:
                by_condition.setdefault(condition.casefold(), []).append(m)
                cos = float(np.dot(self._vector(condition), qvec))
                if asks_date and about_dates(m.content, condition):
                    dated.append((cos, m))
                elif cos >= CONDITION_FLOOR and (best is None or cos > best_cos):
                    best, best_cos, best_condition = m, cos, condition.casefold()
        if dated:
            return [m for _, m in sorted(dated, key=lambda t: -t[0])[:DATED_MAX]]
        if best is None:
            return []
        # two instructions made for the same topic ("when I ask about sneaker features") both apply to it
        return [best, *(m for m in by_condition[best_condition] if m is not best)]

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
