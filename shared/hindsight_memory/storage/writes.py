"""Writes to the tables (the writer's only): upserts and appends in one commit each, deletes, and a note of what
each commit to the memories table changed, which the warm index refreshes from."""

from collections.abc import Callable, Iterable, Sequence
from datetime import datetime
from typing import Any

import numpy as np
import pyarrow as pa

from ..models import Memory
from .filters import Where
from .schema import EVENT_SCHEMA, TS, memory_to_row
from .tables import MEMORIES, Tables

# The warm index refreshes from the rows this process's recent upserts wrote, instead of reading them back.
WRITTEN_ROWS_KEPT, WRITTEN_COMMITS_KEPT = 512, 16


class Writes(Tables):
    def upsert(
        self, memories: Sequence[Memory], vectors: Sequence[Any] | np.ndarray, table: str = MEMORIES
    ) -> None:
        """Insert or replace whole memories in one commit (merge on id)."""
        if not memories:
            return
        rows = pa.Table.from_pylist(
            [memory_to_row(m, v) for m, v in zip(memories, vectors, strict=True)], schema=self._schema
        )
        t = self._table(table)
        res = self._retry(
            lambda: t.merge_insert("id").when_matched_update_all().when_not_matched_insert_all().execute(rows)
        )
        if any(m.passages for m in memories):
            self._split_rows[id(t)] = (True, 0.0)
        if table == MEMORIES:
            self._remember_commit(res.version, memories, (), rows)

    def append_events(self, rows: list[dict[str, Any]]) -> None:
        """Append raw events; ids are deterministic, so a redelivered batch inserts nothing twice."""
        if not rows:
            return
        data = pa.Table.from_pylist(rows, schema=EVENT_SCHEMA)
        self._retry(lambda: self.events.merge_insert("id").when_not_matched_insert_all().execute(data))

    def delete(self, namespace: str, ids: Iterable[str], table: str = MEMORIES) -> None:
        ids = list(ids)
        where = str(Where(namespace).ids(ids))
        t = self._table(table)
        res = self._retry(lambda: t.delete(where))
        if table == MEMORIES:
            self._remember_commit(res.version, (), [(namespace, i) for i in ids])

    def _remember_commit(
        self,
        version: int,
        written: Sequence[Memory],
        deleted: Sequence[tuple[str, str]],
        rows: pa.Table | None = None,
    ) -> None:
        """Remember what one of this process's commits to the memories table changed, by the version it made:
        the warm index then refreshes from the rows written (kept for small recent commits) or by reading just
        those ids (any commit not noted here, from this process or another, leaves a gap in the versions and the
        warm index falls back to scanning newer fragments)."""
        if self.warm is None:
            return
        if rows is not None and len(rows) <= WRITTEN_ROWS_KEPT:
            self._written[version] = rows
            while len(self._written) > WRITTEN_COMMITS_KEPT:
                self._written.pop(next(iter(self._written)))
        change: dict[str, tuple[set[str], set[str]]] = {}
        for m in written:
            change.setdefault(m.namespace, (set(), set()))[0].add(m.id)
        for ns, i in deleted:
            change.setdefault(ns, (set(), set()))[1].add(i)
        self._changes.append((version, change))

    def append(
        self, memories: Sequence[Memory], vectors: Sequence[Any] | np.ndarray, table: str = MEMORIES
    ) -> None:
        """Plain append without the merge on id: only for rows known to be new (bulk copies, benches)."""
        if memories:
            rows = pa.Table.from_pylist(
                [memory_to_row(m, v) for m, v in zip(memories, vectors, strict=True)], schema=self._schema
            )
            self._retry(lambda: self._table(table).add(rows))
            if any(m.passages for m in memories):
                self._split_rows[id(self._table(table))] = (True, 0.0)

    def append_event_records(self, rows: list[dict[str, Any]]) -> None:
        """Append exported events (timestamps as ISO strings); existing ids are kept as they are."""
        fixed = [
            {f.name: _from_iso(r.get(f.name)) if f.type == TS else r.get(f.name) for f in EVENT_SCHEMA}
            for r in rows
        ]
        self.append_events(fixed)

    def delete_where(self, namespace: str, build: Callable[[Where], Where], table: str = MEMORIES) -> None:
        where = build(Where(namespace))
        self._check_scope(namespace, where)
        self._retry(lambda: self._table(table).delete(str(where)))


def _from_iso(value: Any) -> Any:
    return datetime.fromisoformat(value) if isinstance(value, str) and value else (value or None)
