"""A warm process's in-memory vector index, one entry per namespace: exact cosine top-k over a float32 matrix,
with the request's hard filters evaluated in numpy over cached columns.

It only generates candidates. A filter it cannot read exactly makes the caller fall back to LanceDB; the rows it
returns are checked again, one by one, against the namespace and every clause. Freshness comes from table
versions: an entry remembers the version it was read at, and a newer version (this process's own commit, or
another process's once the read-consistency interval has passed) triggers an incremental refresh from a pinned
snapshot. Lance row ids are row addresses (fragment << 32 | offset) and new or rewritten rows always land in new
fragments, so the refresh reads only rows above the highest fragment cached, and a count over the older fragments
proves no cached row was deleted (else their row ids are re-read, and a mismatch still reloads the namespace)."""

import logging
import re
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Protocol

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from ..models import Kind, Status

log = logging.getLogger(__name__)

_STATUS = [s.value for s in Status]
_KIND = [k.value for k in Kind]
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)

# Exactly the clauses filters.Where writes (from validated parts); anything else is not understood here.
_ENUM = re.compile(r"(status|kind) IN \(('[a-z_]{1,32}'(?:, '[a-z_]{1,32}')*)\)")
_ANY = re.compile(r"array_has_any\((tag_keys|entity_keys), \[('[0-9a-f]{8,64}'(?:, '[0-9a-f]{8,64}')*)\]\)")
_KEYS = re.compile(r"session_key IN \(('[0-9a-f]{8,64}'(?:, '[0-9a-f]{8,64}')*)\)")
_TIME = re.compile(r"occurred_at (>=|<|<=|>) TIMESTAMP '(\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{6})'")
_OPS: dict[str, Callable[[Any, Any], Any]] = {
    ">=": lambda a, b: a >= b,
    "<": lambda a, b: a < b,
    "<=": lambda a, b: a <= b,
    ">": lambda a, b: a > b,
}


@dataclass
class Spec:
    """A parsed recall filter: every clause is an AND; list clauses match when any key is shared."""

    statuses: set[str] | None = None
    kinds: set[str] | None = None
    any_of: list[tuple[str, frozenset[str]]] = field(default_factory=list)  # (column, keys)
    times: list[tuple[str, int]] = field(default_factory=list)  # (op, micros since epoch)
    empty: bool = False

    def accepts(self, row: dict[str, Any], namespace: str) -> bool:
        """The same filter evaluated on one row in Python (the check after the numpy pass)."""
        if row.get("namespace") != namespace or self.empty:
            return False
        if self.statuses is not None and row.get("status") not in self.statuses:
            return False
        if self.kinds is not None and row.get("kind") not in self.kinds:
            return False
        for column, keys in self.any_of:
            have = [row.get("session_key")] if column == "session_key" else (row.get(column) or [])
            if not keys.intersection(have):
                return False
        at = row.get("occurred_at")
        return all(at is not None and _OPS[op](_micros(at), v) for op, v in self.times)


def parse(namespace: str, clauses: list[str]) -> Spec | None:
    """The Spec of a namespace-scoped filter, or None when any clause is not one this cache evaluates."""
    if not clauses or clauses[0] != f"namespace = '{namespace}'":
        return None
    spec = Spec()
    for c in clauses[1:]:
        if c == "false":
            spec.empty = True
        elif m := _ENUM.fullmatch(c):
            vals = set(_quoted(m.group(2)))
            attr = "statuses" if m.group(1) == "status" else "kinds"
            prev = getattr(spec, attr)
            setattr(spec, attr, vals if prev is None else prev & vals)
        elif m := _ANY.fullmatch(c):
            spec.any_of.append((m.group(1), frozenset(_quoted(m.group(2)))))
        elif m := _KEYS.fullmatch(c):
            spec.any_of.append(("session_key", frozenset(_quoted(m.group(1)))))
        elif m := _TIME.fullmatch(c):
            at = datetime.strptime(m.group(2), "%Y-%m-%d %H:%M:%S.%f").replace(tzinfo=UTC)
            spec.times.append((m.group(1), _micros(at)))
        else:
            return None
    return spec


def _quoted(s: str) -> list[str]:
    return [p.strip().strip("'") for p in s.split(",")]


def _micros(at: datetime) -> int:
    delta = at - _EPOCH
    return (delta.days * 86400 + delta.seconds) * 1_000_000 + delta.microseconds


class Source(Protocol):
    """Reads from one pinned table version (LanceStore provides it; this module never imports lancedb)."""

    def pin(self) -> int: ...
    def fetch(self, where: str, *, with_vector: bool) -> pa.Table: ...  # rows with `_rowid` (and `vector`)
    def count(self, where: str) -> int: ...


@dataclass
class _State:
    """One namespace at one table version. Never mutated once published, except that arrays and key lists
    may grow past `n`, which readers of this state ignore."""

    version: int
    n: int
    table: pa.Table  # search columns, no vectors
    mat: np.ndarray  # capacity x dim, rows [:n] in use
    inv_norm: np.ndarray
    rowid: np.ndarray
    alive: np.ndarray
    status: np.ndarray
    kind: np.ndarray
    occurred: np.ndarray  # micros; rows without a time never pass a time clause
    timed: np.ndarray
    keys: dict[str, dict[str, list[int]]]  # column -> key -> row indices
    ids: dict[str, int]
    max_frag: int

    @property
    def dead(self) -> int:
        return self.n - int(self.alive.sum())


class VectorCache:
    """Per-namespace exact vector search for one LanceStore's memories table; LRU over namespaces by rows."""

    def __init__(self, max_rows: int, source: Source) -> None:
        self.max_rows = max_rows
        self._source = source
        self._states: OrderedDict[str, _State] = OrderedDict()
        self._lock = threading.Lock()  # the dict
        self._refresh = threading.Lock()  # the pinned snapshot handle: one refresh at a time

    def search(
        self, namespace: str, ns_where: str, clauses: list[str], vector: np.ndarray, limit: int, version: int
    ) -> list[tuple[dict, float, np.ndarray]] | None:
        """(row, cosine, vector) of the nearest rows passing the filter; None: not answerable from the cache."""
        spec = parse(namespace, clauses)
        if spec is None:
            return None
        st = self._fresh(namespace, ns_where, version)
        if st is None:
            return None
        idx = _matching(st, spec)
        if spec.empty or len(idx) == 0 or limit <= 0:
            return []
        q = np.asarray(vector, dtype=np.float32).ravel()
        q = q / (float(np.linalg.norm(q)) or 1.0)
        scores = (st.mat[: st.n] @ q)[idx] if len(idx) * 2 > st.n else st.mat[idx] @ q
        scores *= st.inv_norm[idx]
        k = min(limit, len(idx))
        top = np.argpartition(-scores, k - 1)[:k] if k < len(idx) else np.arange(len(idx))
        top = top[np.argsort(-scores[top], kind="stable")]
        rows = st.table.take(pa.array(idx[top])).to_pylist()
        out = []
        for r, i, s in zip(rows, idx[top], scores[top], strict=True):
            if spec.accepts(r, namespace):
                out.append((r, float(s), st.mat[i]))
            else:  # the numpy pass and the row check disagree: a bug, never an answer
                log.error("vector cache row failed its filter; dropped", extra={"namespace": namespace})
        return out

    def namespaces(self) -> list[str]:
        """Namespaces held now, least recently used first."""
        with self._lock:
            return list(self._states)

    def clear(self) -> None:
        with self._lock:
            self._states.clear()

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
                log.exception("vector cache refresh failed", extra={"namespace": namespace})
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
        data = _own(self._source.fetch(ns_where, with_vector=True), namespace)
        vecs, rest = _split(data)
        return _build(version, rest, vecs)

    def _delta(self, namespace: str, ns_where: str, st: _State, version: int) -> _State | None:
        """The entry at `version` from rows in newer fragments, or None when only a reload is safe."""
        boundary = (st.max_frag + 1) << 32
        new = _own(
            self._source.fetch(f"{ns_where} AND _rowid >= {int(boundary)}", with_vector=True), namespace
        )
        alive = st.alive.copy()
        for i in new.column("id").to_pylist():
            j = st.ids.get(i)
            if j is not None:
                alive[j] = False  # rewritten: the old row is gone from its fragment
        older = f"{ns_where} AND _rowid < {int(boundary)}"
        have = self._source.count(older)
        if have != int(alive.sum()):  # deletes: keep exactly the cached rows still present
            live = self._source.fetch(older, with_vector=False).column("_rowid").to_numpy()
            alive &= np.isin(st.rowid[: st.n], live)
            if have != int(alive.sum()):
                return None
        vecs, rest = _split(new)
        out = _append(st, version, alive, rest, vecs)
        if out.dead > max(256, out.n // 4) or out.table.column(0).num_chunks > 64:
            keep = np.flatnonzero(out.alive)
            out = _build(version, out.table.take(pa.array(keep)), out.mat[keep], out.rowid[keep])
        return out


# ---------------------------------------------------------------------- building entries
def _own(data: pa.Table, namespace: str) -> pa.Table:
    """Defence in depth: only rows of the namespace asked for enter its entry."""
    return data.filter(pc.equal(data.column("namespace"), namespace))


def _split(data: pa.Table) -> tuple[np.ndarray, pa.Table]:
    col = data.column("vector").combine_chunks()
    dim = col.type.list_size
    vecs = col.flatten().to_numpy(zero_copy_only=False).astype(np.float32, copy=False).reshape(-1, dim)
    return vecs, data.drop_columns(["vector"])


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
        "status": pc.fill_null(pc.index_in(t.column("status"), value_set=pa.array(_STATUS)), -1)
        .to_numpy()
        .astype(np.int8),
        "kind": pc.fill_null(pc.index_in(t.column("kind"), value_set=pa.array(_KIND)), -1)
        .to_numpy()
        .astype(np.int8),
        "occurred": pc.fill_null(occ, 0).to_numpy().astype(np.int64),
        "timed": pc.is_valid(occ).to_numpy(zero_copy_only=False),
        "rowid": t.column("_rowid").to_numpy().astype(np.uint64),
    }


def _inv_norm(vecs: np.ndarray) -> np.ndarray:
    norms = np.linalg.norm(vecs, axis=1)
    return np.divide(1.0, norms, out=np.zeros_like(norms), where=norms > 0).astype(np.float32)


def _build(version: int, t: pa.Table, vecs: np.ndarray, rowid: np.ndarray | None = None) -> _State:
    n, dim = len(t), vecs.shape[1] if vecs.ndim == 2 else 0
    mat = np.empty((n + n // 4 + 1024, dim), dtype=np.float32)
    mat[:n] = vecs
    keys: dict[str, dict[str, list[int]]] = {}
    cols = _columns(t, 0, keys)
    rid = cols["rowid"] if rowid is None else rowid
    return _State(
        version=version,
        n=n,
        table=t.combine_chunks(),
        mat=mat,
        inv_norm=_inv_norm(vecs),
        rowid=rid,
        alive=np.ones(n, dtype=bool),
        status=cols["status"],
        kind=cols["kind"],
        occurred=cols["occurred"],
        timed=cols["timed"],
        keys=keys,
        ids={i: j for j, i in enumerate(t.column("id").to_pylist())},
        max_frag=int(rid.max() >> np.uint64(32)) if n else -1,
    )


def _append(st: _State, version: int, alive: np.ndarray, t: pa.Table, vecs: np.ndarray) -> _State:
    m = len(t)
    if m == 0:
        return _State(**{**st.__dict__, "version": version, "alive": alive})
    n = st.n + m
    mat = st.mat
    if n > len(mat):  # grow into a new buffer; readers of older states keep the old one
        mat = np.empty((max(2 * len(mat), n), mat.shape[1]), dtype=np.float32)
        mat[: st.n] = st.mat[: st.n]
    mat[st.n : n] = vecs
    cols = _columns(t, st.n, st.keys)
    for j, i in enumerate(t.column("id").to_pylist()):
        st.ids[i] = st.n + j
    return _State(
        version=version,
        n=n,
        table=pa.concat_tables([st.table, t.select(st.table.column_names)]),
        mat=mat,
        inv_norm=np.concatenate([st.inv_norm, _inv_norm(vecs)]),
        rowid=np.concatenate([st.rowid, cols["rowid"]]),
        alive=np.concatenate([alive, np.ones(m, dtype=bool)]),
        status=np.concatenate([st.status, cols["status"]]),
        kind=np.concatenate([st.kind, cols["kind"]]),
        occurred=np.concatenate([st.occurred, cols["occurred"]]),
        timed=np.concatenate([st.timed, cols["timed"]]),
        keys=st.keys,
        ids=st.ids,
        max_frag=max(st.max_frag, int(cols["rowid"].max() >> np.uint64(32))),
    )


def _matching(st: _State, spec: Spec) -> np.ndarray:
    """Indices of live rows passing every clause (the numpy twin of Spec.accepts)."""
    n = st.n
    mask = st.alive[:n].copy()
    if spec.statuses is not None:
        mask &= np.isin(st.status[:n], [_STATUS.index(s) for s in spec.statuses if s in _STATUS])
    if spec.kinds is not None:
        mask &= np.isin(st.kind[:n], [_KIND.index(k) for k in spec.kinds if k in _KIND])
    for op, v in spec.times:
        mask &= st.timed[:n] & _OPS[op](st.occurred[:n], v)
    for column, keys in spec.any_of:
        hit = np.zeros(n, dtype=bool)
        index = st.keys.get(column, {})
        for k in keys:
            rows = np.array(index.get(k, ()), dtype=np.int64)
            hit[rows[rows < n]] = True
        mask &= hit
    return np.flatnonzero(mask)
