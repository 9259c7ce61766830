"""In-memory BM25 for the warm index: one namespace's postings as numpy arrays, so a query costs a few array
operations per query term instead of a LanceDB round trip. Tokens come from LanceDB's own FTS tokenizer (see
LanceStore's snapshot), so memory and disk rank the same words; statistics are per namespace, so one namespace's
vocabulary never weighs on another's ranking."""

from collections.abc import Sequence

import numpy as np

K1, B = 1.2, 0.75
_DRIFT = 0.1  # re-weigh every posting once the mean document length moved this much since the last weighing


class Postings:
    """term -> (rows, term frequencies, BM25 term weights). Rows only ever grow (appends), so a reader that knows
    its row count `n` reads a consistent prefix while a refresh appends: rows ascend, anything >= n is ignored.
    The length normalisation is folded into each posting's weight at the mean length of its weighing, so a
    query multiplies by idf and adds; weights are recomputed when that mean drifts."""

    def __init__(self) -> None:
        self.terms: dict[str, tuple[np.ndarray, np.ndarray, np.ndarray]] = {}
        self.lengths = np.zeros(0, dtype=np.float32)
        self.avgdl = 0.0

    def add(self, base: int, docs: Sequence[Sequence[str]]) -> None:
        """Index documents as rows base, base+1, ... (base must be the current row count)."""
        if base != len(self.lengths):
            raise ValueError("postings must grow by appending rows in order")
        self.lengths = np.concatenate([self.lengths, np.array([len(d) for d in docs], dtype=np.float32)])
        mean = float(self.lengths.mean()) if len(self.lengths) else 0.0
        reweigh = not self.avgdl or abs(mean / self.avgdl - 1.0) > _DRIFT
        if reweigh:
            self.avgdl = mean or 1.0
        grouped: dict[str, tuple[list[int], list[int]]] = {}
        for j, doc in enumerate(docs):
            counts: dict[str, int] = {}
            for t in doc:
                counts[t] = counts.get(t, 0) + 1
            for t, c in counts.items():
                rows, tfs = grouped.setdefault(t, ([], []))
                rows.append(base + j)
                tfs.append(c)
        for t, (rows, tfs) in grouped.items():
            r, f = np.array(rows, dtype=np.int32), np.array(tfs, dtype=np.float32)
            old = self.terms.get(t)
            if old is not None:
                r, f = np.concatenate([old[0], r]), np.concatenate([old[1], f])
            # Replace, never mutate: a concurrent reader keeps the arrays it already holds.
            self.terms[t] = (r, f, self._weigh(r, f))
        if reweigh:
            for t, (r, f, _) in list(self.terms.items()):
                if t not in grouped:
                    self.terms[t] = (r, f, self._weigh(r, f))

    def _weigh(self, rows: np.ndarray, tfs: np.ndarray) -> np.ndarray:
        norm = K1 * (1 - B + B * self.lengths[rows] / self.avgdl)
        weights: np.ndarray = (tfs * (K1 + 1) / (tfs + norm)).astype(np.float32)
        return weights

    def search(
        self, tokens: Sequence[str], n: int, alive: np.ndarray, allowed: np.ndarray, dead: int = 0
    ) -> tuple[np.ndarray, np.ndarray]:
        """(rows, scores) of every row among the first `n` that matches a token and is `allowed` (bool, length
        n). Statistics count live rows only (`alive`, with `dead` rows among the first n), so rows rewritten or
        deleted since the postings were built weigh nothing."""
        if n == 0:
            return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.float32)
        live = n - dead
        acc = np.zeros(n, dtype=np.float32)
        for t in dict.fromkeys(tokens):  # a repeated query word counts once, as in LanceDB
            hit = self.terms.get(t)
            if hit is None:
                continue
            k = int(np.searchsorted(hit[0], n))
            rows = hit[0][:k]
            df = k if not dead else int(np.count_nonzero(alive[rows]))
            if df == 0:
                continue
            acc[rows] += np.float32(np.log1p((live - df + 0.5) / (df + 0.5))) * hit[2][:k]
        acc *= allowed[:n]
        cand = np.flatnonzero(acc)
        return cand, acc[cand]
