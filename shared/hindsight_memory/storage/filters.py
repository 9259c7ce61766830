"""Builds LanceDB filter expressions from validated parts only.

No user text is ever pasted into a filter: namespaces pass a strict pattern, labels (tags, entities, session ids,
idempotency keys) are compared as hex digests we computed, ids must look like our ids, enums are checked against
their members and times are formatted by us. Anything else raises before a query is built.
"""

import re
from collections.abc import Iterable
from datetime import datetime
from enum import StrEnum
from typing import Any

from ..errors import InvalidInput
from ..models import MEMORY_ID, as_utc
from ..namespaces import validate_namespace
from ..text import key

_HEX = re.compile(r"^[0-9a-f]{8,64}$")
_ID = MEMORY_ID
_COLUMN = re.compile(r"^[a-z_]{1,32}$")


def _col(name: str) -> str:
    if not _COLUMN.fullmatch(name):
        raise ValueError(f"bad column name {name!r}")
    return name


def _hex_list(values: Iterable[str], pattern: re.Pattern[str] = _HEX) -> str:
    vals = list(values)
    for v in vals:
        if not isinstance(v, str) or not pattern.fullmatch(v):
            raise InvalidInput("malformed id or key")
    return ", ".join(f"'{v}'" for v in vals)


class Where:
    """An AND of clauses, always starting with the namespace (or a namespace subtree).

    Besides the expression string, each clause is kept as a typed part (`parts`), so the warm index in
    storage/warm.py evaluates exactly the same filter in memory without parsing the string back."""

    def __init__(self, namespace: str, *, subtree: bool = False) -> None:
        ns = validate_namespace(namespace)
        if subtree:
            self._clauses = [f"(namespace = '{ns}' OR starts_with(namespace, '{ns}/'))"]
        else:
            self._clauses = [f"namespace = '{ns}'"]
        self.parts: list[tuple[Any, ...]] = [("subtree" if subtree else "namespace", ns)]
        self._needs: list[str | None] = [None]

    @classmethod
    def all_namespaces(cls) -> "Where":
        """Only for tenant-wide maintenance (compaction, export of everything); never for a request path."""
        w = cls.__new__(cls)
        w._clauses = ["true"]
        w.parts = [("all",)]
        w._needs = [None]
        return w

    def _add(self, clause: str, part: tuple[Any, ...], needs: str | None = None) -> "Where":
        self._clauses.append(clause)
        self.parts.append(part)
        self._needs.append(needs)
        return self

    def _false(self) -> "Where":
        return self._add("false", ("false",))

    def ids(self, ids: Iterable[str], column: str = "id") -> "Where":
        vals = list(ids)
        if not vals:
            return self._false()
        return self._add(f"{_col(column)} IN ({_hex_list(vals, _ID)})", ("in", column, frozenset(vals)))

    def keys_in(self, column: str, keys: Iterable[str]) -> "Where":
        vals = list(keys)
        if not vals:
            return self._false()
        return self._add(f"{_col(column)} IN ({_hex_list(vals)})", ("in", column, frozenset(vals)))

    def any_key(self, column: str, keys: Iterable[str]) -> "Where":
        """List column shares at least one of `keys`."""
        vals = list(keys)
        if not vals:
            return self._false()
        return self._add(
            f"array_has_any({_col(column)}, [{_hex_list(vals)}])", ("any", column, frozenset(vals))
        )

    def enum_in(self, column: str, values: Iterable[StrEnum]) -> "Where":
        vals = [StrEnum.__str__(v) for v in values]
        for v in vals:
            if not re.fullmatch(r"[a-z_]{1,32}", v):
                raise InvalidInput("malformed enum value")
        if not vals:
            return self._false()
        return self._add(
            f"{_col(column)} IN ({', '.join(repr(v) for v in vals)})", ("in", column, frozenset(vals))
        )

    def time(self, column: str, op: str, value: datetime) -> "Where":
        if op not in (">=", "<", "<=", ">"):
            raise ValueError(op)
        v = as_utc(value)
        stamp = f"{v.year:04d}-{v:%m-%d %H:%M:%S.%f}"  # %Y does not zero-pad years before 1000
        return self._add(f"{_col(column)} {op} TIMESTAMP '{stamp}'", ("time", column, op, v))

    def labels(
        self,
        *,
        kinds: Iterable[StrEnum] | None = None,
        tags: Iterable[str] | None = None,
        entities: Iterable[str] | None = None,
        session_id: str | None = None,
        since: datetime | None = None,
        until: datetime | None = None,
    ) -> "Where":
        """The label and time filters shared by recall and forget: labels compared as digests, times on
        occurred_at as [since, until). Unset arguments add nothing."""
        if kinds:
            self.enum_in("kind", kinds)
        if tags:
            self.any_key("tag_keys", [key(t) for t in tags])
        if entities:
            self.any_key("entity_keys", [key(e) for e in entities])
        if session_id:
            self.keys_in("session_key", [key(session_id)])
        if since:
            self.time("occurred_at", ">=", since)
        if until:
            self.time("occurred_at", "<", until)
        return self

    def not_null(self, column: str) -> "Where":
        return self._add(f"{_col(column)} IS NOT NULL", ("not_null", column))

    def copy(self) -> "Where":
        w = Where.__new__(Where)
        w._clauses, w.parts, w._needs = list(self._clauses), list(self.parts), list(self._needs)
        return w

    def session_ranges(self, ranges: Iterable[tuple[str, int, int]]) -> "Where":
        """Rows of any of the given sessions (by key digest) within a seq range: neighbour lookups."""
        ranges = [(k, int(lo), int(hi)) for k, lo, hi in ranges]
        if not ranges:
            return self._false()
        parts = [f"(session_key = {_hex_list([k])} AND seq >= {lo} AND seq <= {hi})" for k, lo, hi in ranges]
        return self._add(f"({' OR '.join(parts)})", ("ranges", tuple(ranges)))

    def valid_at(self, at: datetime) -> "Where":
        """Memories true at `at` (valid time): occurred by then, and not superseded by then."""
        v = as_utc(at)
        self.time("occurred_at", "<=", v)
        stamp = f"{v.year:04d}-{v:%m-%d %H:%M:%S.%f}"
        return self._add(
            f"(valid_until IS NULL OR valid_until > TIMESTAMP '{stamp}')",
            ("valid_at", v),
            needs="valid_until",
        )

    def sql(self, missing: Iterable[str] = ()) -> str:
        """The expression; clauses on a column in `missing` (a table written before that column existed, read
        by a process that may not add it) are left out: their column reads as null there."""
        gone = set(missing)
        return " AND ".join(
            c for c, needs in zip(self._clauses, self._needs, strict=True) if needs not in gone
        )

    def __str__(self) -> str:
        return self.sql()
