"""Builds LanceDB filter expressions from validated parts only.

No user text is ever pasted into a filter: namespaces pass a strict pattern, labels (tags, entities, session ids,
idempotency keys) are compared as hex digests we computed, ids must look like our ids, enums are checked against
their members and times are formatted by us. Anything else raises before a query is built.
"""

import re
from collections.abc import Iterable
from datetime import datetime
from enum import StrEnum

from ..errors import InvalidInput
from ..models import as_utc
from ..namespaces import validate_namespace
from ..text import key

_HEX = re.compile(r"^[0-9a-f]{8,64}$")
_ID = re.compile(r"^[0-9a-f]{32}$")
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
    """An AND of clauses, always starting with the namespace (or a namespace subtree)."""

    def __init__(self, namespace: str, *, subtree: bool = False) -> None:
        ns = validate_namespace(namespace)
        if subtree:
            self._clauses = [f"(namespace = '{ns}' OR starts_with(namespace, '{ns}/'))"]
        else:
            self._clauses = [f"namespace = '{ns}'"]

    @classmethod
    def all_namespaces(cls) -> "Where":
        """Only for tenant-wide maintenance (compaction, export of everything); never for a request path."""
        w = cls.__new__(cls)
        w._clauses = ["true"]
        return w

    def ids(self, ids: Iterable[str], column: str = "id") -> "Where":
        vals = list(ids)
        self._clauses.append(f"{_col(column)} IN ({_hex_list(vals, _ID)})" if vals else "false")
        return self

    def keys_in(self, column: str, keys: Iterable[str]) -> "Where":
        vals = list(keys)
        self._clauses.append(f"{_col(column)} IN ({_hex_list(vals)})" if vals else "false")
        return self

    def any_key(self, column: str, keys: Iterable[str]) -> "Where":
        """List column shares at least one of `keys`."""
        vals = list(keys)
        self._clauses.append(f"array_has_any({_col(column)}, [{_hex_list(vals)}])" if vals else "false")
        return self

    def enum_in(self, column: str, values: Iterable[StrEnum]) -> "Where":
        vals = [StrEnum.__str__(v) for v in values]
        for v in vals:
            if not re.fullmatch(r"[a-z_]{1,32}", v):
                raise InvalidInput("malformed enum value")
        self._clauses.append(f"{_col(column)} IN ({', '.join(repr(v) for v in vals)})" if vals else "false")
        return self

    def time(self, column: str, op: str, value: datetime) -> "Where":
        if op not in (">=", "<", "<=", ">"):
            raise ValueError(op)
        v = as_utc(value)
        stamp = f"{v.year:04d}-{v:%m-%d %H:%M:%S.%f}"  # %Y does not zero-pad years before 1000
        self._clauses.append(f"{_col(column)} {op} TIMESTAMP '{stamp}'")
        return self

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

    def int_between(self, column: str, low: int, high: int) -> "Where":
        self._clauses.append(f"{_col(column)} >= {int(low)} AND {_col(column)} <= {int(high)}")
        return self

    def session_ranges(self, ranges: Iterable[tuple[str, int, int]]) -> "Where":
        """Rows of any of the given sessions (by key digest) within a seq range: neighbour lookups."""
        parts = [
            f"(session_key = {_hex_list([k])} AND seq >= {int(lo)} AND seq <= {int(hi)})"
            for k, lo, hi in ranges
        ]
        self._clauses.append(f"({' OR '.join(parts)})" if parts else "false")
        return self

    def __str__(self) -> str:
        return " AND ".join(self._clauses)
