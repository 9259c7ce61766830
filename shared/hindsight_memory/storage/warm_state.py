"""The warm index's entry for one namespace at one table version (see warm.py), and the array helpers that build
and rank it."""

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from ..models import Kind, Status
from .bm25 import Postings

STATUSES = [s.value for s in Status]
KINDS = [k.value for k in Kind]
EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
Hit = tuple[dict[str, Any], float, np.ndarray]  # (row, score, unit vector)
# Rows taken from this process's own writes do not know their row address; they never move the fragment
# boundary, and the next scan of newer fragments reads them again with their real one.
UNKNOWN_ROWID = np.iinfo(np.uint64).max


@dataclass
class Entry:
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
    # Memories split into passages (embed/passages.py): their passages' unit vectors, rows [:pn] in use, each
    # row's first passage (-1: not split) and count, and each passage's row. A row's passages are contiguous.
    pmat: np.ndarray
    pcodes: np.ndarray  # the same passages as int8 codes, for the pre-selection when there are many
    pn: int
    pstart: np.ndarray
    pcount: np.ndarray
    powner: np.ndarray

    @property
    def dead(self) -> int:
        return self.n - int(self.alive.sum())


def without_rows(st: Entry, ids: Iterable[str]) -> np.ndarray:
    """The entry's live-row mask with the rows held for `ids` (rewritten or deleted since) turned off."""
    alive = st.alive.copy()
    for i in ids:
        j = st.ids.get(i)
        if j is not None:
            alive[j] = False
    return alive


def top_rows(st: Entry, rows: np.ndarray, scores: np.ndarray, limit: int) -> tuple[np.ndarray, np.ndarray]:
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


def group_starts(keys: np.ndarray) -> np.ndarray:
    """Where each run of equal values begins in `keys` (non-empty; equal values contiguous)."""
    return np.flatnonzero(np.r_[True, keys[1:] != keys[:-1]])


def to_rows(t: pa.Table) -> list[dict[str, Any]]:
    """Rows as dicts. Timestamps are converted here rather than by pyarrow, which takes three times as long as
    for every other column together."""
    stamps = [f.name for f in t.schema if pa.types.is_timestamp(f.type)]
    rows: list[dict[str, Any]] = t.drop_columns([*stamps, "search_text", "_rowid"]).to_pylist()
    for name in stamps:
        micros = t.column(name).cast(pa.int64()).to_pylist()
        for r, v in zip(rows, micros, strict=True):
            r[name] = None if v is None else EPOCH + timedelta(microseconds=v)
    return rows


def keep_namespace(data: pa.Table, namespace: str) -> pa.Table:
    """Defence in depth: only rows of the namespace asked for enter its entry."""
    return data.filter(pc.equal(data.column("namespace"), namespace))


def split_vectors(data: pa.Table) -> tuple[np.ndarray, np.ndarray, np.ndarray, pa.Table]:
    """The rows' vectors, their passages' vectors (flat, in row order), passages per row (0: not split), and
    the table without the vector columns."""
    col = data.column("vector").combine_chunks()
    dim = col.type.list_size
    vecs = col.flatten().to_numpy(zero_copy_only=False).astype(np.float32, copy=False).reshape(-1, dim)
    counts = np.zeros(len(data), dtype=np.int64)
    pvecs = np.zeros((0, dim), dtype=np.float32)
    if "passages" in data.column_names:
        pcol = data.column("passages").combine_chunks()
        counts = pc.fill_null(pc.list_value_length(pcol), 0).to_numpy().astype(np.int64)
        if counts.any():
            flat = pc.list_flatten(pcol).flatten().to_numpy(zero_copy_only=False)
            pvecs = flat.astype(np.float32, copy=False).reshape(-1, dim)
        data = data.drop_columns(["passages"])
    return vecs, pvecs, counts, data.drop_columns(["vector"])


def passage_layout(counts: np.ndarray, row_base: int, passage_base: int) -> tuple[np.ndarray, np.ndarray]:
    """For rows numbered from `row_base` whose passages are stored from `passage_base` on: each row's first
    passage (-1 when not split), and each passage's row."""
    ends = passage_base + np.cumsum(counts)
    starts = np.where(counts > 0, ends - counts, -1).astype(np.int64)
    owner = np.repeat(np.arange(row_base, row_base + len(counts), dtype=np.int64), counts)
    return starts, owner


def passage_rows(st: "Entry", rows: np.ndarray) -> np.ndarray:
    """Indices into `st.pmat` of the passages of `rows`, in row order."""
    counts = st.pcount[rows]
    if not counts.any():
        return np.zeros(0, dtype=np.int64)
    starts = st.pstart[rows][counts > 0]
    counts = counts[counts > 0]
    return np.repeat(starts - np.cumsum(counts) + counts, counts) + np.arange(int(counts.sum()))


def max_fragment(rowid: np.ndarray, floor: int) -> int:
    """The highest fragment among known row addresses (rows from this process's writes have none yet)."""
    known = rowid[rowid != UNKNOWN_ROWID]
    return max(floor, int(known.max() >> np.uint64(32))) if len(known) else floor


def int8_codes(unit_vecs: np.ndarray) -> np.ndarray:
    codes: np.ndarray = np.round(unit_vecs * 127.0).astype(np.int8)
    return codes


def unit_rows(vecs: np.ndarray) -> np.ndarray:
    norms = np.linalg.norm(vecs, axis=1, keepdims=True)
    out: np.ndarray = np.divide(vecs, norms, out=np.zeros_like(vecs), where=norms > 0)
    return out.astype(np.float32, copy=False)


def filter_columns(t: pa.Table, base: int, keys: dict[str, dict[str, list[int]]]) -> dict[str, np.ndarray]:
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
        "status": value_codes(t.column("status"), STATUSES),
        "kind": value_codes(t.column("kind"), KINDS),
        "seq": pc.fill_null(t.column("seq"), 0).to_numpy().astype(np.int64),
        "occurred": pc.fill_null(occ, 0).to_numpy().astype(np.int64),
        "timed": pc.is_valid(occ).to_numpy(zero_copy_only=False),
        "rowid": t.column("_rowid").to_numpy().astype(np.uint64),
    }


def value_codes(column: pa.ChunkedArray, values: list[str]) -> np.ndarray:
    codes: np.ndarray = pc.fill_null(pc.index_in(column, value_set=pa.array(values)), -1).to_numpy()
    return codes.astype(np.int8)
