"""A warm process's in-memory index of the memories table, one entry per namespace: cosine top-k over float32
unit vectors (in large namespaces after an int8 pre-selection), BM25 over postings (storage/bm25.py) and session
neighbours, with the request's hard filters evaluated in numpy over cached columns.

It only answers what it can answer exactly: a filter it does not evaluate makes the caller fall back to LanceDB,
and every row it returns is checked again, one by one, against the namespace and every clause. Freshness comes
from table versions: an entry remembers the version it was read at, and a newer version (this process's own
commit, or another process's once the read-consistency interval has passed) triggers an incremental refresh from a
pinned snapshot. When every commit since was this process's own, the refresh takes the rows they wrote (or reads
just those ids). Otherwise: Lance row ids are row addresses (fragment << 32 | offset) and new or rewritten rows
always land in new fragments, so the refresh reads only rows above the highest fragment cached, and a count over
the older fragments proves no cached row was deleted (else their row ids are re-read, and a mismatch reloads the
entry)."""

import logging
import os
import threading
from collections import OrderedDict
from typing import Any, Protocol

import numpy as np
import pyarrow as pa
import simsimd

from .bm25 import Postings
from .filters import Where
from .warm_filter import WarmFilter, matching_rows, warm_filter_of
from .warm_state import (
    UNKNOWN_ROWID,
    Entry,
    Hit,
    filter_columns,
    group_starts,
    int8_codes,
    keep_namespace,
    max_fragment,
    passage_layout,
    passage_rows,
    split_vectors,
    to_rows,
    top_rows,
    unit_rows,
    without_rows,
)

log = logging.getLogger(__name__)

__all__ = ["UNKNOWN_ROWID", "Hit", "Source", "WarmIndex"]

EXACT_ROWS = 20_000  # up to this many candidate rows, every one is scored in float32 directly
PRESELECT = 4  # above it, int8 codes pick this many times `limit` rows for exact scoring,
CODE_MARGIN = (
    0.015  # and every row whose int8 cosine is within this of the last one picked (~5 sd of the error)
)
_THREADS = max(
    1, min(4, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1)
)


class Source(Protocol):
    """Reads from one pinned table version (LanceStore provides it; this module never imports lancedb)."""

    def pin(self) -> int: ...
    def fetch(self, where: str, *, with_vector: bool) -> pa.Table: ...  # `_rowid`, search columns (+ vector)
    def count(self, where: str) -> int: ...
    def tokenize(self, texts: list[str]) -> list[list[str]] | None: ...  # None: no full-text index yet
    def changes(self, since: int, until: int) -> dict[str, tuple[set[str], set[str]]] | None: ...
    def written(self, since: int, until: int, namespace: str, ids: set[str]) -> pa.Table | None: ...


class WarmIndex:
    """Per-namespace in-memory search for one LanceStore's memories table; LRU over namespaces by rows."""

    def __init__(self, max_rows: int, source: Source) -> None:
        self.max_rows = max_rows
        self.exact_rows = EXACT_ROWS
        self._source = source
        self._states: OrderedDict[str, Entry] = OrderedDict()
        self._lock = threading.Lock()  # the dict
        self._refresh = threading.Lock()  # the pinned snapshot handle: one refresh at a time
        self._mask_memo: tuple[Entry, tuple[Any, ...], np.ndarray] | None = None

    # ------------------------------------------------------------------ queries
    def vector(self, where: Where, vector: np.ndarray, limit: int, version: int) -> list[Hit] | None:
        """Nearest rows by cosine passing the filter (a memory split into passages by its best passage, max-sim);
        None: not answerable from memory."""
        found = self._prepare(where, version)
        if found is None:
            return None
        st, flt, mask = found
        if limit <= 0 or not mask.any():
            return []
        q = np.asarray(vector, dtype=np.float32).ravel()
        q = q / (float(np.linalg.norm(q)) or 1.0)
        # Rows embedded whole compete by their vector, split ones by their passages (their row vector is a mean).
        plain = mask & (st.pcount[: st.n] == 0) if st.pn else mask
        idx, scores = self._nearest(q, np.flatnonzero(plain), st.mat, st.codes, st.n, limit)
        if st.pn:
            sel = np.flatnonzero(mask[st.powner[: st.pn]])
            sel, pscores = self._nearest(q, sel, st.pmat, st.pcodes, st.pn, limit, st.powner)
            if len(sel):
                first = group_starts(st.powner[sel])  # a row's passages are contiguous, and `sel` ascends
                idx = np.concatenate([idx, st.powner[sel[first]]])
                scores = np.concatenate([scores, np.maximum.reduceat(pscores, first)])
        return self._rows(st, flt, *top_rows(st, idx, scores, limit))

    def _nearest(
        self,
        q: np.ndarray,
        idx: np.ndarray,
        mat: np.ndarray,
        codes: np.ndarray,
        n: int,
        limit: int,
        owner: np.ndarray | None = None,
    ) -> tuple[np.ndarray, np.ndarray]:
        """Cosines of q with the rows `idx` (ascending) of `mat`: all of them up to `exact_rows`; above, the best
        PRESELECT x limit by int8 codes and their near ties, scored exactly. With `owner` (passages: each one's
        memory), memories are picked by their best passage and keep all their passages: picking passages would
        let a few memories with many good passages crowd out the rest."""
        if len(idx) > self.exact_rows:
            # Reading 4-byte floats for every row is what costs (memory bandwidth): rank by int8 codes first,
            # a quarter of the bytes, then score the best PRESELECT x limit (and near ties) exactly.
            coarse = np.asarray(
                simsimd.cdist(int8_codes(q)[None, :], codes[:n], metric="dot", threads=_THREADS)
            ).ravel()
            coarse = (coarse if len(idx) == n else coarse[idx]).astype(np.float32) / (127.0 * 127.0)
            first = None if owner is None else group_starts(owner[idx])
            if first is not None:
                coarse = np.maximum.reduceat(coarse, first)
            keep = min(len(coarse), PRESELECT * limit)
            kth = np.partition(coarse, len(coarse) - keep)[len(coarse) - keep]
            # Rounding to int8 moves a cosine by ~0.003 (sd); anything within CODE_MARGIN of the cut may
            # belong above it, so it is scored exactly too.
            picked = coarse >= kth - CODE_MARGIN
            if first is not None:
                picked = np.repeat(picked, np.diff(np.r_[first, len(idx)]))
            idx = idx[picked]
        scores = (mat[:n] @ q)[idx] if len(idx) * 4 > n else mat[idx] @ q
        return idx, scores

    def text(self, where: Where, tokens: list[str], limit: int, version: int) -> list[Hit] | None:
        """Best rows by BM25 over `tokens` passing the filter; None: not answerable from memory."""
        found = self._prepare(where, version)
        if found is None or found[0].postings is None:
            return None
        st, flt, mask = found
        rows, scores = st.postings.search(tokens, st.n, st.alive, mask, st.dead)  # type: ignore[union-attr]
        return self._rows(st, flt, *top_rows(st, rows, scores, limit))

    def rows(self, where: Where, limit: int, version: int) -> list[Hit] | None:
        """Rows passing the filter in table order (neighbour lookups); None: not answerable from memory."""
        found = self._prepare(where, version)
        if found is None:
            return None
        st, flt, mask = found
        idx = np.flatnonzero(mask)[:limit]
        return self._rows(st, flt, idx, np.zeros(len(idx), dtype=np.float32))

    def namespaces(self) -> list[str]:
        """Namespaces held now, least recently used first."""
        with self._lock:
            return list(self._states)

    def describe(self) -> dict[str, dict[str, Any]]:
        """Per namespace held: rows in memory, table version, whether full-text search is served from memory."""
        with self._lock:
            return {
                ns: {"rows": st.n - st.dead, "version": st.version, "full_text": st.postings is not None}
                for ns, st in self._states.items()
            }

    def _prepare(self, where: Where, version: int) -> tuple[Entry, WarmFilter, np.ndarray] | None:
        flt = warm_filter_of(where)
        if flt is None:
            return None
        st = self._fresh(flt.namespace, str(Where(flt.namespace)), version)
        if st is None:
            return None
        # Recall asks both channels with the same filter: compute its mask once.
        parts = tuple(where.parts)
        memo = self._mask_memo
        if memo is not None and memo[0] is st and memo[1] == parts:
            return st, flt, memo[2]
        mask = matching_rows(st, flt)
        self._mask_memo = (st, parts, mask)
        return st, flt, mask

    @staticmethod
    def _rows(st: Entry, flt: WarmFilter, idx: np.ndarray, scores: np.ndarray) -> list[Hit]:
        rows = to_rows(st.table.take(pa.array(idx, type=pa.int64()))) if len(idx) else []
        vecs: Any = st.mat[idx]  # one gather (a copy), then a row view per hit
        if st.pn:  # a split memory's hit carries its passages (recall scores it by the best one)
            vecs = [
                st.pmat[st.pstart[j] : st.pstart[j] + st.pcount[j]] if st.pcount[j] else v
                for j, v in zip(idx.tolist(), vecs, strict=True)
            ]
        out = []
        for r, v, s in zip(rows, vecs, scores.tolist(), strict=True):
            if flt.accepts(r):
                out.append((r, s, v))
            else:  # the numpy pass and the row check disagree: a bug, never an answer
                log.error("warm index row failed its filter; dropped", extra={"namespace": flt.namespace})
        return out

    # ------------------------------------------------------------------ freshness
    def _fresh(self, namespace: str, ns_where: str, version: int) -> Entry | None:
        with self._lock:
            st = self._states.get(namespace)
            if st is not None and st.version >= version:
                self._states.move_to_end(namespace)
                return st
        with self._refresh:
            with self._lock:
                st = self._states.get(namespace)
            if st is not None and st.version >= version:
                return st
            try:
                st = self._load(namespace, ns_where, st)
            except Exception:  # a failed refresh must not fail the recall: LanceDB answers instead
                log.exception("warm index refresh failed", extra={"namespace": namespace})
                with self._lock:
                    self._states.pop(namespace, None)
                return None
            with self._lock:
                if st is None:
                    self._states.pop(namespace, None)
                    return None
                self._states[namespace] = st
                self._states.move_to_end(namespace)
                total = sum(s.n for s in self._states.values())
                while total > self.max_rows and len(self._states) > 1:
                    _, gone = self._states.popitem(last=False)
                    total -= gone.n
            return st

    def _load(self, namespace: str, ns_where: str, st: Entry | None) -> Entry | None:
        version = self._source.pin()
        if st is not None:
            fresh = self._delta(namespace, ns_where, st, version)
            if fresh is not None:
                return fresh
        if self._source.count(ns_where) > self.max_rows:
            return None  # too big for the budget: LanceDB serves it
        return self._build(version, keep_namespace(self._source.fetch(ns_where, with_vector=True), namespace))

    def _delta(self, namespace: str, ns_where: str, st: Entry, version: int) -> Entry | None:
        """The entry at `version` from rows in newer fragments, or None when only a reload is safe."""
        if st.postings is None and self._source.tokenize([""]) is not None:
            return None  # a full-text index appeared since: rebuild with postings
        changes = self._source.changes(st.version, version)
        if changes is not None:  # every commit since was this process's own: read just the rows it wrote
            written, deleted = changes.get(namespace, (set(), set()))
            alive = without_rows(st, written | deleted)
            new = None
            if written:
                if not written & deleted:  # else the order of writes and deletes matters: read the table
                    new = self._source.written(st.version, version, namespace, written)
                if new is None:
                    by_id = str(Where(namespace).ids(sorted(written)))
                    new = keep_namespace(self._source.fetch(by_id, with_vector=True), namespace)
            if _gained_columns(st, new):
                return None
            return self._compact_entry(self._append(st, version, alive, new))
        boundary = (st.max_frag + 1) << 32
        new = keep_namespace(
            self._source.fetch(f"{ns_where} AND _rowid >= {int(boundary)}", with_vector=True), namespace
        )
        alive = without_rows(
            st, new.column("id").to_pylist()
        )  # rewritten: the old row is gone from its fragment
        older = f"{ns_where} AND _rowid < {int(boundary)}"
        have = self._source.count(older)
        if have != int(alive.sum()):  # deletes: keep exactly the cached rows still present
            live = self._source.fetch(older, with_vector=False).column("_rowid").to_numpy()
            alive &= np.isin(st.rowid[: st.n], live)
            if have != int(alive.sum()):
                return None
        if _gained_columns(st, new):
            return None
        return self._compact_entry(self._append(st, version, alive, new))

    def _compact_entry(self, st: Entry) -> Entry:
        """Rebuild once many rows are dead (they still cost search time and skew BM25 lengths); merge the
        table's chunks once appends have split it (row lookups slow down with every chunk)."""
        if st.dead > max(256, st.n // 4):
            keep = np.flatnonzero(st.alive[: st.n])
            passages = (st.pmat[passage_rows(st, keep)], st.pcount[keep])
            return self._build(st.version, st.table.take(pa.array(keep)), st.mat[: st.n][keep], passages)
        if st.table.column(0).num_chunks > 64:
            return Entry(**{**st.__dict__, "table": st.table.combine_chunks()})
        return st

    # ------------------------------------------------------------------ building entries
    def _tokens(self, t: pa.Table) -> list[list[str]] | None:
        return self._source.tokenize(t.column("search_text").to_pylist()) if len(t) else []

    def _build(
        self,
        version: int,
        t: pa.Table,
        vecs: np.ndarray | None = None,
        passages: tuple[np.ndarray, np.ndarray] | None = None,
    ) -> Entry:
        if vecs is None or passages is None:
            vecs, pvecs, counts, t = split_vectors(t)
        else:
            pvecs, counts = passages
        n, dim = len(t), vecs.shape[1]
        pn = len(pvecs)
        pmat = np.empty((pn + pn // 4 + 64, dim), dtype=np.float32)
        pmat[:pn] = unit_rows(pvecs)
        pcodes = np.empty(pmat.shape, dtype=np.int8)
        pcodes[:pn] = int8_codes(pmat[:pn])
        pstart, owner = passage_layout(counts, 0, 0)
        powner = np.empty(len(pmat), dtype=np.int64)
        powner[:pn] = owner
        mat = np.empty((n + n // 4 + 1024, dim), dtype=np.float32)
        mat[:n] = unit_rows(vecs)
        codes = np.empty(mat.shape, dtype=np.int8)
        codes[:n] = int8_codes(mat[:n])
        keys: dict[str, dict[str, list[int]]] = {}
        cols = filter_columns(t, 0, keys)
        tokens = self._tokens(t)
        postings = None
        if tokens is not None:
            postings = Postings()
            postings.add(0, tokens)
        return Entry(
            version=version,
            n=n,
            table=t.combine_chunks(),
            mat=mat,
            codes=codes,
            alive=np.ones(n, dtype=bool),
            keys=keys,
            ids={i: j for j, i in enumerate(t.column("id").to_pylist())},
            max_frag=max_fragment(cols["rowid"], -1),
            postings=postings,
            pmat=pmat,
            pcodes=pcodes,
            pn=pn,
            pstart=pstart,
            pcount=counts.astype(np.int64),
            powner=powner,
            **cols,
        )

    def _append(self, st: Entry, version: int, alive: np.ndarray, new: pa.Table | None) -> Entry:
        if new is None or len(new) == 0:
            return Entry(**{**st.__dict__, "version": version, "alive": alive})
        m = len(new)
        vecs, pvecs, counts, t = split_vectors(new)
        n = st.n + m
        pn = st.pn + len(pvecs)
        pmat, pcodes, powner = st.pmat, st.pcodes, st.powner
        if pn > len(pmat):  # grown like the row arrays below
            pmat = np.empty((max(2 * len(pmat), pn), pmat.shape[1]), dtype=np.float32)
            pmat[: st.pn] = st.pmat[: st.pn]
            pcodes = np.empty(pmat.shape, dtype=np.int8)
            pcodes[: st.pn] = st.pcodes[: st.pn]
            powner = np.empty(len(pmat), dtype=np.int64)
            powner[: st.pn] = st.powner[: st.pn]
        pmat[st.pn : pn] = unit_rows(pvecs)
        pcodes[st.pn : pn] = int8_codes(pmat[st.pn : pn])
        pstart, owner = passage_layout(counts, st.n, st.pn)
        powner[st.pn : pn] = owner
        mat, codes = st.mat, st.codes
        if n > len(mat):  # grow into new buffers; readers of older states keep the old ones
            mat = np.empty((max(2 * len(mat), n), mat.shape[1]), dtype=np.float32)
            mat[: st.n] = st.mat[: st.n]
            codes = np.empty(mat.shape, dtype=np.int8)
            codes[: st.n] = st.codes[: st.n]
        mat[st.n : n] = unit_rows(vecs)
        codes[st.n : n] = int8_codes(mat[st.n : n])
        if st.postings is not None:
            tokens = self._tokens(t)
            if tokens is None:
                raise RuntimeError("the full-text index disappeared")
            st.postings.add(st.n, tokens)
        cols = filter_columns(t, st.n, st.keys)
        for j, i in enumerate(t.column("id").to_pylist()):
            st.ids[i] = st.n + j
        cols.update(pstart=pstart, pcount=counts)
        grown = {k: np.concatenate([getattr(st, k), v]) for k, v in cols.items()}
        return Entry(
            **{
                **st.__dict__,
                **grown,
                "version": version,
                "n": n,
                "table": pa.concat_tables([st.table, t.select(st.table.column_names).cast(st.table.schema)]),
                "mat": mat,
                "codes": codes,
                "pmat": pmat,
                "pcodes": pcodes,
                "pn": pn,
                "powner": powner,
                "alive": np.concatenate([alive, np.ones(m, dtype=bool)]),
                "max_frag": max_fragment(cols["rowid"], st.max_frag),
            }
        )


def _gained_columns(st: Entry, new: pa.Table | None) -> bool:
    """Whether newer rows carry a column the held ones lack (another process added it, e.g. `original`): appended,
    they would lose it; only a reload keeps it."""
    return new is not None and bool(
        set(new.column_names) - {"vector", "passages"} - set(st.table.column_names)
    )
