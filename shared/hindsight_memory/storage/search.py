"""Searches of one namespace: nearest by vector, BM25 full text, batched nearest (dedup), session neighbours.
Answered from the warm index when the process holds one, else by LanceDB. A memory split into passages is scored
by its best passage (max-sim) in both."""

import time
from collections.abc import Callable
from typing import Any

import numpy as np

from ..embed.passages import best_passage
from ..models import Memory
from .filters import Where
from .reads import Reads
from .schema import WITH_VECTOR, row_to_memory, row_vectors
from .tables import MEMORIES, MISSING_TABLE_RECHECK_S


class Search(Reads):
    def neighbours(
        self, namespace: str, build: Callable[[Where], Where], limit: int
    ) -> list[tuple[Memory, Any]]:
        """Like `find` with vectors, for recall's adjacent-turn lookups: answered from memory when warm."""
        if self.warm is not None:
            where = build(Where(namespace))
            self._check_scope(namespace, where)
            hits = self.warm.rows(where, limit, self._warm_version())
            if hits is not None:
                return [(m, v) for m, _, v in self._memories(namespace, hits)]
        return self.find(namespace, build, with_vectors=True, limit=limit)

    def _memories(
        self, namespace: str, hits: list[tuple[dict[str, Any], float, Any]]
    ) -> list[tuple[Memory, float, Any]]:
        mine = {id(r) for r in self._only_namespace(namespace, [r for r, _, _ in hits])}
        return [(row_to_memory(r), score, v) for r, score, v in hits if id(r) in mine]

    def vector_search(
        self, namespace: str, vector: np.ndarray, where: Where, limit: int, table: str = MEMORIES
    ) -> list[tuple[Memory, float, Any]]:
        """Nearest memories by cosine similarity, prefiltered by `where` (which is scoped to `namespace`)."""
        self._check_scope(namespace, where)
        if table == MEMORIES and self.warm is not None:
            hits = self.warm.vector(where, vector, limit, self._warm_version())
            if hits is not None:
                return self._memories(namespace, hits)
        t = self._table(table)
        cols = self._cols(t, [*WITH_VECTOR, "_distance"])
        rows = self._nearest(t, "vector", vector, self._sql(t, where), cols, limit)
        if "passages" in cols and self._holds_passages(t):
            # Split memories compete by their best passage: a second search over the passage vectors only.
            only_split = where.copy().not_null("passages")
            rows += self._nearest(t, "passages", vector, self._sql(t, only_split), cols, limit)
        best: dict[str, tuple[Memory, float, Any]] = {}
        for r in self._only_namespace(namespace, rows):
            vecs = row_vectors(r)
            score = best_passage(vector, vecs)[0] if r.get("passages") else 1.0 - float(r["_distance"])
            if r["id"] not in best or score > best[r["id"]][1]:
                best[r["id"]] = (row_to_memory(r), score, vecs)
        return sorted(best.values(), key=lambda h: (-round(h[1], 6), h[0].id))[:limit]

    def _holds_passages(self, t: Any) -> bool:
        """Whether any row of `t` is split into passages (else the passage search is skipped). Once seen, kept;
        until then, looked at again every few seconds (another process may write one)."""
        now = time.monotonic()
        seen = self._split_rows.get(id(t))
        if seen is None or (not seen[0] and now - seen[1] > MISSING_TABLE_RECHECK_S):
            seen = self._split_rows[id(t)] = (t.count_rows("passages IS NOT NULL") > 0, now)
        return seen[0]

    @staticmethod
    def _nearest(
        t: Any, column: str, vector: np.ndarray, where: str, cols: list[str], limit: int
    ) -> list[dict[str, Any]]:
        rows: list[dict[str, Any]] = (
            t.search(vector, vector_column_name=column)
            .distance_type("cosine")
            .where(where, prefilter=True)
            .select(cols)
            .limit(limit)
            .to_list()
        )
        return rows

    def nearest_many(
        self, namespace: str, vectors: np.ndarray, where: Where, limit: int
    ) -> list[list[tuple[Memory, float, Any]]]:
        """Batched nearest-neighbour lookups (dedup at write time): one query for many vectors."""
        self._check_scope(namespace, where)
        if len(vectors) == 0:
            return []
        t = self.memories
        rows = (
            t.search(list(vectors), vector_column_name="vector")
            .distance_type("cosine")
            .where(self._sql(t, where), prefilter=True)
            .select(self._cols(t, [*WITH_VECTOR, "_distance"]))
            .limit(limit)
            .to_list()
        )
        out: list[list[tuple[Memory, float, Any]]] = [[] for _ in range(len(vectors))]
        for r in self._only_namespace(namespace, rows):
            hit = (row_to_memory(r), 1.0 - float(r["_distance"]), row_vectors(r))
            out[r.get("query_index", 0)].append(hit)
        return out

    def fts_search(
        self, namespace: str, text: str, where: Where, limit: int
    ) -> list[tuple[Memory, float, Any]]:
        """BM25 over content + context. The query text goes to the FTS engine as a query, not into a filter."""
        self._check_scope(namespace, where)
        if not self.fts_ready() or not text.strip():
            return []
        if self.warm is not None:
            tokens = [t.text for t in self.memories.tokenize(text, column="search_text")]
            hits = self.warm.text(where, tokens, limit, self._warm_version())
            if hits is not None:
                return self._memories(namespace, hits)
        t = self.memories
        rows = (
            t.search(text, query_type="fts", fts_columns="search_text")
            .where(self._sql(t, where), prefilter=True)
            .select(self._cols(t, [*WITH_VECTOR, "_score"]))
            .limit(limit)
            .to_list()
        )
        return [
            (row_to_memory(r), float(r["_score"]), row_vectors(r))
            for r in self._only_namespace(namespace, rows)
        ]
