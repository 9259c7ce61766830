"""Read-only queries for the memory inspector: pages of memories or events in time order with a keyset cursor,
and counts by day. Filters are built from typed parts (storage.filters.Where); free text is matched in Arrow
against the rows, never pasted into a filter. Every row is checked again against the namespace asked for."""

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc

from ..models import Memory
from .filters import Where
from .reads import Reads
from .tables import COLD, EVENTS, MEMORIES

ORDERS = ("occurred_at", "stored_at")


@dataclass(frozen=True)
class Cursor:
    """Where the previous page stopped: rows strictly after (time, id) in descending order come next. Rows added
    meanwhile sort before it (newer) or land where they belong, so a page never repeats or skips a row."""

    at: datetime
    id: str


@dataclass
class Page:
    rows: list[Any]
    next: Cursor | None


def _scan(table: Any, where: Where, columns: list[str]) -> Any:
    """Some columns of every row matching `where` (which starts with the namespace clause), as an Arrow table."""
    return table.search().where(str(where)).select(columns).limit(None).to_arrow().select(columns)


class Browse(Reads):
    def browse_page(
        self,
        namespace: str,
        build: Callable[[Where], Where],
        *,
        tables: tuple[str, ...] = (MEMORIES,),
        order: str = "occurred_at",
        limit: int = 50,
        after: Cursor | None = None,
        text: str | None = None,
    ) -> Page:
        """One page of rows (newest first by `order`, ties by id) of the given tables: memories as (Memory, table)
        pairs, events as dicts. `build` adds the filter clauses to the namespace's Where. Only the sort keys of the
        matching rows are read; the full rows are fetched for the page alone (and checked against the namespace).

        Raises:
            ValueError: `order` is not a time column a page can follow.
        """
        if order not in ORDERS:
            raise ValueError(order)
        cols = ["id", order, *(["content"] if text else [])]
        parts = []
        for role in tables:
            where = build(Where(namespace))
            self._check_scope(namespace, where)
            if after is not None:
                where.time(order, "<=", after.at)  # the rest of the keyset condition is applied below
            keys = _scan(self._table(role), where, cols)
            parts.append(keys.append_column("table", pa.array([role] * len(keys), type=pa.string())))
        keys = pa.concat_tables(parts)
        if after is not None:
            at = pa.scalar(after.at, type=keys.schema.field(order).type)
            same = pc.and_(pc.equal(keys[order], at), pc.greater_equal(keys["id"], after.id))
            keys = keys.filter(pc.invert(same))
        if text:
            keys = keys.filter(pc.match_substring(keys["content"], text, ignore_case=True))
        if len(keys) > limit:
            # The newest limit+1 times first (a numeric top-k, cheap), with every row tied at the cut kept.
            times = keys[order]
            cut = pc.min(
                times.take(pc.select_k_unstable(times, k=limit + 1, sort_keys=[("dummy", "descending")]))
            )
            keys = keys.filter(pc.greater_equal(times, cut))
        keys = keys.take(pc.sort_indices(keys, sort_keys=[(order, "descending"), ("id", "descending")]))
        more = len(keys) > limit
        keys = keys.slice(0, limit)
        ids: list[str] = keys["id"].to_pylist()
        roles: list[str] = keys["table"].to_pylist()
        rows = self._fetch(namespace, ids, roles)
        nxt = Cursor(keys[order][-1].as_py(), ids[-1]) if more and ids else None
        return Page(rows=rows, next=nxt)

    def _fetch(self, namespace: str, ids: list[str], roles: list[str]) -> list[Any]:
        """The full rows of a page, in the page's order."""
        out: dict[tuple[str, str], Any] = {}
        for role in set(roles):
            wanted = [i for i, r in zip(ids, roles, strict=True) if r == role]
            if role == EVENTS:
                rows = self._rows(self._table(EVENTS), Where(namespace).ids(wanted))
                for e in self._only_namespace(namespace, rows):
                    out[(role, e["id"])] = e
            else:
                for m, _ in self.get(namespace, wanted, table=role):
                    out[(role, m.id)] = (m, role)
        return [out[(r, i)] for i, r in zip(ids, roles, strict=True) if (r, i) in out]

    def overview_counts(self, namespace: str) -> dict[str, Any]:
        """Counts for the overview from one read of a few columns per table: memories by kind and status, by
        tier, how many recall has used, and memories and events stored per UTC day."""
        where = Where(namespace)
        mem = _scan(self._table(MEMORIES), where, ["kind", "status", "tier", "stored_at", "access_count"])
        cold = _scan(self._table(COLD), where, ["stored_at"])
        events = _scan(self._table(EVENTS), where, ["stored_at"])
        by_status: dict[str, dict[str, int]] = {}
        for r in mem.group_by(["kind", "status"]).aggregate([([], "count_all")]).to_pylist():
            by_status.setdefault(r["kind"], {})[r["status"]] = r["count_all"]
        tiers = {
            (r["tier"] or "hot"): r["count_all"]
            for r in mem.group_by("tier").aggregate([([], "count_all")]).to_pylist()
        }
        tiers["cold"] = len(cold)
        return {
            "memories": by_status,
            "tiers": tiers,
            "archived": len(cold),
            "events": len(events),
            "used": int(pc.sum(pc.greater(mem["access_count"], 0)).as_py() or 0) if len(mem) else 0,
            "memories_per_day": _per_day(mem["stored_at"], cold["stored_at"]),
            "events_per_day": _per_day(events["stored_at"]),
        }

    def find_anywhere(self, namespace: str, ids: list[str]) -> dict[str, tuple[Memory, str]]:
        """Memories by id from the live table, then the cold tier: id -> (memory, table)."""
        out = {m.id: (m, MEMORIES) for m, _ in self.get(namespace, ids)}
        rest = [i for i in ids if i not in out]
        if rest:
            out.update({m.id: (m, COLD) for m, _ in self.get(namespace, rest, table=COLD)})
        return out

    def derived_from(self, namespace: str, memory_id: str, limit: int = 200) -> list[tuple[Memory, str]]:
        """Memories whose sources include `memory_id` (what was derived from it), live and cold."""
        out: list[tuple[Memory, str]] = []
        for role in (MEMORIES, COLD):
            found = self.find(
                namespace, lambda w: w.any_key("source_ids", [memory_id]), limit=limit, table=role
            )
            out += [(m, role) for m, _ in found if m.id != memory_id]
        return out

    def locate(self, memory_id: str) -> str | None:
        """The namespace holding a memory id, searched tenant-wide: for the local command line only, never for
        a request (a request names its namespace and is checked against its token's scopes)."""
        for role in (MEMORIES, COLD):
            rows = self._rows(self._table(role), Where.all_namespaces().ids([memory_id]), ["namespace"], 1)
            if rows:
                return str(rows[0]["namespace"])
        return None


def _per_day(*columns: Any) -> dict[str, int]:
    out: dict[str, int] = {}
    for col in columns:
        if len(col) == 0:
            continue
        days = pc.strftime(pc.floor_temporal(col, unit="day"), format="%Y-%m-%d")
        for v in pc.value_counts(days).to_pylist():
            out[str(v["values"])] = out.get(str(v["values"]), 0) + int(v["counts"])
    return out
