"""Recall filters in a form numpy evaluates over a warm index entry, and the same check on one row."""

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import numpy as np

from .filters import Where
from .warm_state import EPOCH, KINDS, STATUSES, Entry

_OPS: dict[str, Callable[[Any, Any], Any]] = {
    ">=": lambda a, b: a >= b,
    "<": lambda a, b: a < b,
    "<=": lambda a, b: a <= b,
    ">": lambda a, b: a > b,
}


@dataclass
class WarmFilter:
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


def warm_filter_of(where: Where) -> WarmFilter | None:
    """The WarmFilter of a single-namespace filter, or None when any clause is one this index does not evaluate."""
    kind, *rest = where.parts[0]
    if kind != "namespace":
        return None
    flt = WarmFilter(namespace=rest[0])
    for part in where.parts[1:]:
        match part:
            case ("false",):
                flt.empty = True
            case ("in", "status" | "kind" as column, values):
                attr = "statuses" if column == "status" else "kinds"
                prev = getattr(flt, attr)
                setattr(flt, attr, set(values) if prev is None else prev & set(values))
            case ("in", "session_key", values) | ("any", "tag_keys" | "entity_keys", values):
                flt.any_of.append((part[1], values))
            case ("time", "occurred_at", op, at):
                flt.times.append((op, _micros(at)))
            case ("ranges", ranges):
                if flt.ranges is not None:  # two range clauses are an AND of ORs: LanceDB answers those
                    return None
                flt.ranges = list(ranges)
            case _:
                return None
    return flt


def _micros(at: datetime) -> int:
    delta = at - EPOCH
    return (delta.days * 86400 + delta.seconds) * 1_000_000 + delta.microseconds


def matching_rows(st: Entry, flt: WarmFilter) -> np.ndarray:
    """Live rows passing every clause, as a boolean mask over the first n rows (the numpy twin of accepts)."""
    n = st.n
    mask = st.alive[:n].copy()
    if flt.empty:
        return np.zeros(n, dtype=bool)
    if flt.statuses is not None:
        mask &= _lookup(STATUSES, flt.statuses)[st.status[:n]]
    if flt.kinds is not None:
        mask &= _lookup(KINDS, flt.kinds)[st.kind[:n]]
    for op, v in flt.times:
        mask &= st.timed[:n] & _OPS[op](st.occurred[:n], v)
    for column, keys in flt.any_of:
        mask &= _rows_with(st, column, keys)
    if flt.ranges is not None:
        hit = np.zeros(n, dtype=bool)
        for k, lo, hi in flt.ranges:
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


def _rows_with(st: Entry, column: str, keys: frozenset[str]) -> np.ndarray:
    hit = np.zeros(st.n, dtype=bool)
    index = st.keys.get(column, {})
    for k in keys:
        rows = np.array(index.get(k, ()), dtype=np.int64)
        hit[rows[rows < st.n]] = True
    return hit
