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
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any, Protocol

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import simsimd

from ..models import Kind, Status
from .bm25 import Postings
from .filters import Where

log = logging.getLogger(__name__)

_STATUS = [s.value for s in Status]
_KIND = [k.value for k in Kind]
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_OPS: dict[str, Callable[[Any, Any], Any]] = {
    ">=": lambda a, b: a >= b,
    "<": lambda a, b: a < b,
    "<=": lambda a, b: a <= b,
    ">": lambda a, b: a > b,
}
Hit = tuple[dict, float, np.ndarray]  # (row, score, unit vector)
# Rows taken from this process's own writes do not know their row address; they never move the fragment
# boundary, and the next scan of newer fragments reads them again with their real one.
UNKNOWN_ROWID = np.iinfo(np.uint64).max
EXACT_ROWS = 20_000  # up to this many candidate rows, every one is scored in float32 directly
PRESELECT = 4  # above it, int8 codes pick this many times `limit` rows for exact scoring,
CODE_MARGIN = (
    0.015  # and every row whose int8 cosine is within this of the last one picked (~5 sd of the error)
)
_THREADS = max(
    1, min(4, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1)
)


@dataclass
class Spec:
    """A recall filter in a form numpy evaluates: every clause is an AND; label clauses match any shared key."""

    namespace: str
    statuses: set[str] | None = None
    kinds: set[str] | None = None
    any_of: list[tuple[str, frozenset[str]]] = field(default_factory=list)  # (column, keys)
    times: list[tuple[str, int]] = field(default_factory=list)  # (op, micros since epoch)
    ranges: list[tuple[str, int, int]] | None = None  # (session_key, lowest seq, highest seq)
    empty: bool = False

    def accepts(self, row: dict[str, Any]) -> bool:
        """The same filter evaluated on one row in Python (the check after the numpy pass)."""
        if row.get("namespace") != self.namespace or self.empty:
            return False
        if self.statuses is not None and row.get("status") not in self.statuses:
            return False
        if self.kinds is not None and row.get("kind") not in self.kinds:
            return False
        for column, keys in self.any_of:
            have = [row.get(column)] if column == "session_key" else (row.get(column) or [])
            if not keys.intersection(have):
                return False
        if self.ranges is not None and not any(
            row.get("session_key") == k and lo <= (row.get("seq") or 0) <= hi for k, lo, hi in self.ranges
        ):
            return False
        at = row.get("occurred_at")
        return all(at is not None and _OPS[op](_micros(at), v) for op, v in self.times)


def spec_of(where: Where) -> Spec | None:
    """The Spec of a single-namespace filter, or None when any clause is one this index does not evaluate."""
    kind, *rest = where.parts[0]
    if kind != "namespace":
        return None
    spec = Spec(namespace=rest[0])
    for part in where.parts[1:]:
        match part:
            case ("false",):
                spec.empty = True
            case ("in", "status" | "kind" as column, values):
                attr = "statuses" if column == "status" else "kinds"
                prev = getattr(spec, attr)
                setattr(spec, attr, set(values) if prev is None else prev & set(values))
            case ("in", "session_key", values) | ("any", "tag_keys" | "entity_keys", values):
                spec.any_of.append((part[1], values))
            case ("time", "occurred_at", op, at):
                spec.times.append((op, _micros(at)))
            case ("ranges", ranges):
                if spec.ranges is not None:  # two range clauses are an AND of ORs: LanceDB answers those
                    return None
                spec.ranges = list(ranges)
            case _:
                return None
    return spec


def _micros(at: datetime) -> int:
    delta = at - _EPOCH
    return (delta.days * 86400 + delta.seconds) * 1_000_000 + delta.microseconds


class Source(Protocol):
    """Reads from one pinned table version (LanceStore provides it; this module never imports lancedb)."""

    def pin(self) -> int: ...
    def fetch(self, where: str, *, with_vector: bool) -> pa.Table: ...  # `_rowid`, search columns (+ vector)
    def count(self, where: str) -> int: ...
    def tokenize(self, texts: list[str]) -> list[list[str]] | None: ...  # None: no full-text index yet
    def changes(self, since: int, until: int) -> dict[str, tuple[set[str], set[str]]] | None: ...
    def written(self, since: int, until: int, namespace: str, ids: set[str]) -> pa.Table | None: ...


@dataclass
class _State:
    """One namespace at one table version. Never mutated once published, except that arrays, key lists and
    postings may grow past `n`, which readers of this state ignore."""

    version: int
    n: int
    table: pa.Table  # search columns, no vectors
    mat: np.ndarray  # capacity x dim unit vectors, rows [:n] in use
    codes: (
        np.ndarray
    )  # capacity x dim int8: the same vectors x 127, for the pre-selection in large namespaces
    rowid: np.ndarray
    alive: np.ndarray
    status: np.ndarray
    kind: np.ndarray
    seq: np.ndarray
    occurred: np.ndarray  # micros; rows without a time never pass a time clause
    timed: np.ndarray
    keys: dict[str, dict[str, list[int]]]  # label column -> key -> row indices
    ids: dict[str, int]
    max_frag: int
    postings: Postings | None  # None: the table had no full-text index when this entry was built

    @property
    def dead(self) -> int:
        return self.n - int(self.alive.sum())


class WarmIndex:
    """Per-namespace in-memory search for one LanceStore's memories table; LRU over namespaces by rows."""

    def __init__(self, max_rows: int, source: Source) -> None:
        self.max_rows = max_rows
        self.exact_rows = EXACT_ROWS
        self._source = source
        self._states: OrderedDict[str, _State] = OrderedDict()
        self._lock = threading.Lock()  # the dict
        self._refresh = threading.Lock()  # the pinned snapshot handle: one refresh at a time
        self._mask_memo: tuple[_State, tuple, np.ndarray] | None = None

    # ------------------------------------------------------------------ queries
    def vector(self, where: Where, vector: np.ndarray, limit: int, version: int) -> list[Hit] | None:
        """Nearest rows by cosine passing the filter; None: not answerable from memory."""
        found = self._prepare(where, version)
        if found is None:
            return None
        st, spec, mask = found
        idx = np.flatnonzero(mask)
        if len(idx) == 0 or limit <= 0:
            return []
        q = np.asarray(vector, dtype=np.float32).ravel()
        q = q / (float(np.linalg.norm(q)) or 1.0)
        if len(idx) > self.exact_rows:
            # Reading 4-byte floats for every row is what costs (memory bandwidth): rank by int8 codes first,
            # a quarter of the bytes, then score the best PRESELECT x limit (and near ties) exactly.
            coarse = np.asarray(
                simsimd.cdist(_code(q)[None, :], st.codes[: st.n], metric="dot", threads=_THREADS)
            ).ravel()
            coarse = (coarse if len(idx) == st.n else coarse[idx]).astype(np.float32) / (127.0 * 127.0)
            keep = min(len(idx), PRESELECT * limit)
            kth = np.partition(coarse, len(coarse) - keep)[len(coarse) - keep]
            # Rounding to int8 moves a cosine by ~0.003 (sd); anything within CODE_MARGIN of the cut may
            # belong above it, so it is scored exactly too.
            idx = idx[coarse >= kth - CODE_MARGIN]
        scores = (st.mat[: st.n] @ q)[idx] if len(idx) * 4 > st.n else st.mat[idx] @ q
        return self._rows(st, spec, *_top(st, idx, scores, limit))

    def text(self, where: Where, tokens: list[str], limit: int, version: int) -> list[Hit] | None:
        """Best rows by BM25 over `tokens` passing the filter; None: not answerable from memory."""
        found = self._prepare(where, version)
        if found is None or found[0].postings is None:
            return None
        st, spec, mask = found
        rows, scores = st.postings.search(tokens, st.n, st.alive, mask, st.dead)  # type: ignore[union-attr]
        return self._rows(st, spec, *_top(st, rows, scores, limit))

    def rows(self, where: Where, limit: int, version: int) -> list[Hit] | None:
        """Rows passing the filter in table order (neighbour lookups); None: not answerable from memory."""
        found = self._prepare(where, version)
        if found is None:
            return None
        st, spec, mask = found
        idx = np.flatnonzero(mask)[:limit]
        return self._rows(st, spec, idx, np.zeros(len(idx), dtype=np.float32))

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

    def clear(self) -> None:
        with self._lock:
            self._states.clear()

    def _prepare(self, where: Where, version: int) -> tuple[_State, Spec, np.ndarray] | None:
        spec = spec_of(where)
        if spec is None:
            return None
        st = self._fresh(spec.namespace, str(Where(spec.namespace)), version)
        if st is None:
            return None
        # Recall asks both channels with the same filter: compute its mask once.
        parts = tuple(where.parts)
        memo = self._mask_memo
        if memo is not None and memo[0] is st and memo[1] == parts:
            return st, spec, memo[2]
        mask = _matching(st, spec)
        self._mask_memo = (st, parts, mask)
        return st, spec, mask

    @staticmethod
    def _rows(st: _State, spec: Spec, idx: np.ndarray, scores: np.ndarray) -> list[Hit]:
        rows = _pylist(st.table.take(pa.array(idx, type=pa.int64()))) if len(idx) else []
        vecs = st.mat[idx]  # one gather (a copy), then a row view per hit
        out = []
        for r, v, s in zip(rows, vecs, scores.tolist(), strict=True):
            if spec.accepts(r):
                out.append((r, s, v))
            else:  # the numpy pass and the row check disagree: a bug, never an answer
                log.error("warm index row failed its filter; dropped", extra={"namespace": spec.namespace})
        return out

    # ------------------------------------------------------------------ freshness
    def _fresh(self, namespace: str, ns_where: str, version: int) -> _State | None:
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

    def _load(self, namespace: str, ns_where: str, st: _State | None) -> _State | None:
        version = self._source.pin()
        if st is not None:
            fresh = self._delta(namespace, ns_where, st, version)
            if fresh is not None:
                return fresh
        if self._source.count(ns_where) > self.max_rows:
            return None  # too big for the budget: LanceDB serves it
        return self._build(version, _own(self._source.fetch(ns_where, with_vector=True), namespace))

    def _delta(self, namespace: str, ns_where: str, st: _State, version: int) -> _State | None:
        """The entry at `version` from rows in newer fragments, or None when only a reload is safe."""
        if st.postings is None and self._source.tokenize([""]) is not None:
            return None  # a full-text index appeared since: rebuild with postings
        changes = self._source.changes(st.version, version)
        if changes is not None:  # every commit since was this process's own: read just the rows it wrote
            written, deleted = changes.get(namespace, (set(), set()))
            alive = _retire(st, written | deleted)
            new = None
            if written:
                if not written & deleted:  # else the order of writes and deletes matters: read the table
                    new = self._source.written(st.version, version, namespace, written)
                if new is None:
                    by_id = str(Where(namespace).ids(sorted(written)))
                    new = _own(self._source.fetch(by_id, with_vector=True), namespace)
            return self._tidy(self._append(st, version, alive, new))
        boundary = (st.max_frag + 1) << 32
        new = _own(
            self._source.fetch(f"{ns_where} AND _rowid >= {int(boundary)}", with_vector=True), namespace
        )
        alive = _retire(st, new.column("id").to_pylist())  # rewritten: the old row is gone from its fragment
        older = f"{ns_where} AND _rowid < {int(boundary)}"
        have = self._source.count(older)
        if have != int(alive.sum()):  # deletes: keep exactly the cached rows still present
            live = self._source.fetch(older, with_vector=False).column("_rowid").to_numpy()
            alive &= np.isin(st.rowid[: st.n], live)
            if have != int(alive.sum()):
                return None
        return self._tidy(self._append(st, version, alive, new))

    def _tidy(self, st: _State) -> _State:
        """Rebuild once many rows are dead (they still cost search time and skew BM25 lengths); merge the
        table's chunks once appends have split it (row lookups slow down with every chunk)."""
        if st.dead > max(256, st.n // 4):
            keep = np.flatnonzero(st.alive[: st.n])
            return self._build(st.version, st.table.take(pa.array(keep)), st.mat[: st.n][keep])
        if st.table.column(0).num_chunks > 64:
            return _State(**{**st.__dict__, "table": st.table.combine_chunks()})
        return st

    # ------------------------------------------------------------------ building entries
    def _tokens(self, t: pa.Table) -> list[list[str]] | None:
        return self._source.tokenize(t.column("search_text").to_pylist()) if len(t) else []

    def _build(self, version: int, t: pa.Table, vecs: np.ndarray | None = None) -> _State:
        if vecs is None:
            vecs, t = _split(t)
        n, dim = len(t), vecs.shape[1]
        mat = np.empty((n + n // 4 + 1024, dim), dtype=np.float32)
        mat[:n] = _unit(vecs)
        codes = np.empty(mat.shape, dtype=np.int8)
        codes[:n] = _code(mat[:n])
        keys: dict[str, dict[str, list[int]]] = {}
        cols = _columns(t, 0, keys)
        tokens = self._tokens(t)
        postings = None
        if tokens is not None:
            postings = Postings()
            postings.add(0, tokens)
        return _State(
            version=version,
            n=n,
            table=t.combine_chunks(),
            mat=mat,
            codes=codes,
            alive=np.ones(n, dtype=bool),
            keys=keys,
            ids={i: j for j, i in enumerate(t.column("id").to_pylist())},
            max_frag=_max_frag(cols["rowid"], -1),
            postings=postings,
            **cols,
        )

    def _append(self, st: _State, version: int, alive: np.ndarray, new: pa.Table | None) -> _State:
        if new is None or len(new) == 0:
            return _State(**{**st.__dict__, "version": version, "alive": alive})
        m = len(new)
        vecs, t = _split(new)
        n = st.n + m
        mat, codes = st.mat, st.codes
        if n > len(mat):  # grow into new buffers; readers of older states keep the old ones
            mat = np.empty((max(2 * len(mat), n), mat.shape[1]), dtype=np.float32)
            mat[: st.n] = st.mat[: st.n]
            codes = np.empty(mat.shape, dtype=np.int8)
            codes[: st.n] = st.codes[: st.n]
        mat[st.n : n] = _unit(vecs)
        codes[st.n : n] = _code(mat[st.n : n])
        if st.postings is not None:
            tokens = self._tokens(t)
            if tokens is None:
                raise RuntimeError("the full-text index disappeared")
            st.postings.add(st.n, tokens)
        cols = _columns(t, st.n, st.keys)
        for j, i in enumerate(t.column("id").to_pylist()):
            st.ids[i] = st.n + j
        grown = {k: np.concatenate([getattr(st, k), v]) for k, v in cols.items()}
        return _State(
            **{
                **st.__dict__,
                **grown,
                "version": version,
                "n": n,
                "table": pa.concat_tables([st.table, t.select(st.table.column_names).cast(st.table.schema)]),
                "mat": mat,
                "codes": codes,
                "alive": np.concatenate([alive, np.ones(m, dtype=bool)]),
                "max_frag": _max_frag(cols["rowid"], st.max_frag),
            }
        )


def _retire(st: _State, ids: Iterable[str]) -> np.ndarray:
    """The entry's live-row mask with the rows held for `ids` (rewritten or deleted since) turned off."""
    alive = st.alive.copy()
    for i in ids:
        j = st.ids.get(i)
        if j is not None:
            alive[j] = False
    return alive


def _top(st: _State, rows: np.ndarray, scores: np.ndarray, limit: int) -> tuple[np.ndarray, np.ndarray]:
    """The best `limit` rows, ties ordered by id: the answer must not depend on where rows sit in memory
    (compaction and refreshes move them, and BLAS rounds the same dot product differently at another offset,
    hence ties are judged on scores rounded to 1e-6)."""
    if limit <= 0 or len(rows) == 0:
        return rows[:0], scores[:0]
    if len(rows) > limit:
        kth = np.partition(scores, len(scores) - limit)[len(scores) - limit]
        keep = np.flatnonzero(scores >= kth - 1e-5)  # the best, and anything that may tie with the last place
        rows, scores = rows[keep], scores[keep]
    rank = np.round(scores.astype(np.float64), 6)
    order = np.argsort(-rank, kind="stable")
    if len(np.unique(rank)) < len(rank):  # ties: break them by id
        ids = st.table.column("id").take(pa.array(rows, type=pa.int64())).to_pylist()
        order = np.array(sorted(range(len(rows)), key=lambda j: (-rank[j], ids[j])), dtype=np.int64)
    order = order[:limit]
    return rows[order], scores[order]


def _pylist(t: pa.Table) -> list[dict[str, Any]]:
    """Rows as dicts. Timestamps are converted here rather than by pyarrow, which takes three times as long as
    for every other column together."""
    stamps = [f.name for f in t.schema if pa.types.is_timestamp(f.type)]
    rows = t.drop_columns([*stamps, "search_text", "_rowid"]).to_pylist()
    for name in stamps:
        micros = t.column(name).cast(pa.int64()).to_pylist()
        for r, v in zip(rows, micros, strict=True):
            r[name] = None if v is None else _EPOCH + timedelta(microseconds=v)
    return rows


def _own(data: pa.Table, namespace: str) -> pa.Table:
    """Defence in depth: only rows of the namespace asked for enter its entry."""
    return data.filter(pc.equal(data.column("namespace"), namespace))


def _split(data: pa.Table) -> tuple[np.ndarray, pa.Table]:
    col = data.column("vector").combine_chunks()
    dim = col.type.list_size
    vecs = col.flatten().to_numpy(zero_copy_only=False).astype(np.float32, copy=False).reshape(-1, dim)
    return vecs, data.drop_columns(["vector"])


def _max_frag(rowid: np.ndarray, floor: int) -> int:
    """The highest fragment among known row addresses (rows from this process's writes have none yet)."""
    known = rowid[rowid != UNKNOWN_ROWID]
    return max(floor, int(known.max() >> np.uint64(32))) if len(known) else floor


def _code(unit_vecs: np.ndarray) -> np.ndarray:
    return np.round(unit_vecs * 127.0).astype(np.int8)


def _unit(vecs: np.ndarray) -> np.ndarray:
    norms = np.linalg.norm(vecs, axis=1, keepdims=True)
    return np.divide(vecs, norms, out=np.zeros_like(vecs), where=norms > 0).astype(np.float32, copy=False)


def _columns(t: pa.Table, base: int, keys: dict[str, dict[str, list[int]]]) -> dict[str, np.ndarray]:
    """Per-row filter columns of `t` as numpy, and its label keys added to `keys` (row indices from `base`)."""
    occ = t.column("occurred_at").cast(pa.int64())
    for column in ("tag_keys", "entity_keys"):
        lists = t.column(column).combine_chunks()
        flat = pc.list_flatten(lists).to_pylist()
        parents = pc.list_parent_indices(lists).to_numpy() + base
        index = keys.setdefault(column, {})
        for k, p in zip(flat, parents.tolist(), strict=True):
            index.setdefault(k, []).append(p)
    index = keys.setdefault("session_key", {})
    for j, k in enumerate(t.column("session_key").to_pylist()):
        if k:
            index.setdefault(k, []).append(base + j)
    return {
        "status": _codes(t.column("status"), _STATUS),
        "kind": _codes(t.column("kind"), _KIND),
        "seq": pc.fill_null(t.column("seq"), 0).to_numpy().astype(np.int64),
        "occurred": pc.fill_null(occ, 0).to_numpy().astype(np.int64),
        "timed": pc.is_valid(occ).to_numpy(zero_copy_only=False),
        "rowid": t.column("_rowid").to_numpy().astype(np.uint64),
    }


def _codes(column: pa.ChunkedArray, values: list[str]) -> np.ndarray:
    return pc.fill_null(pc.index_in(column, value_set=pa.array(values)), -1).to_numpy().astype(np.int8)


def _matching(st: _State, spec: Spec) -> np.ndarray:
    """Live rows passing every clause, as a boolean mask over the first n rows (the numpy twin of accepts)."""
    n = st.n
    mask = st.alive[:n].copy()
    if spec.empty:
        return np.zeros(n, dtype=bool)
    if spec.statuses is not None:
        mask &= _lookup(_STATUS, spec.statuses)[st.status[:n]]
    if spec.kinds is not None:
        mask &= _lookup(_KIND, spec.kinds)[st.kind[:n]]
    for op, v in spec.times:
        mask &= st.timed[:n] & _OPS[op](st.occurred[:n], v)
    for column, keys in spec.any_of:
        mask &= _rows_with(st, column, keys)
    if spec.ranges is not None:
        hit = np.zeros(n, dtype=bool)
        for k, lo, hi in spec.ranges:
            rows = np.array(st.keys.get("session_key", {}).get(k, ()), dtype=np.int64)
            rows = rows[rows < n]
            hit[rows[(st.seq[rows] >= lo) & (st.seq[rows] <= hi)]] = True
        mask &= hit
    return mask


def _lookup(names: list[str], wanted: set[str]) -> np.ndarray:
    """A table from code to `code's name is wanted`; the last entry answers code -1 (a value not in `names`)."""
    table = np.zeros(len(names) + 1, dtype=bool)
    table[[i for i, v in enumerate(names) if v in wanted]] = True
    return table


def _rows_with(st: _State, column: str, keys: frozenset[str]) -> np.ndarray:
    hit = np.zeros(st.n, dtype=bool)
    index = st.keys.get(column, {})
    for k in keys:
        rows = np.array(index.get(k, ()), dtype=np.int64)
        hit[rows[rows < st.n]] = True
    return hit
