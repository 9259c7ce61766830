"""Table upkeep and purges: indexes a table has grown into, fragment compaction, version pruning, deleting from
every table (live and retired) and dropping every old version so purged data cannot be read back."""

from collections.abc import Iterable
from datetime import timedelta
from functools import partial
from typing import Any

import pyarrow as pa

from .catalog import Catalog
from .filters import Where
from .runlog import REFLECTION_RUNS
from .tables import COLD, EVENTS, MEMORIES

# Scalar indexes built once a table is large enough: (column, kind) per table.
_SCALAR_INDEXES = {
    "memories": [
        ("id", "btree"),
        ("namespace", "btree"),
        ("kind", "bitmap"),
        ("status", "bitmap"),
        ("tag_keys", "label_list"),
        ("entity_keys", "label_list"),
        ("session_key", "btree"),
        ("slot_key", "btree"),
    ],  # neighbour lookups, supersede checks
    "events": [("id", "btree"), ("namespace", "btree"), ("idem_key", "btree"), ("memory_id", "btree")],
    "cold": [("id", "btree"), ("namespace", "btree")],
}


class Maintenance(Catalog):
    def table_stats(self) -> dict[str, dict[str, Any]]:
        out = {}
        for name, t in ((MEMORIES, self.memories), (EVENTS, self.events), (COLD, self.cold)):
            st = t.stats()
            out[name] = {
                "rows": st["num_rows"],
                "fragments": st["fragment_stats"]["num_fragments"],
                "small_fragments": st["fragment_stats"]["num_small_fragments"],
                "versions": len(t.list_versions()),
                "indices": sorted(i.name for i in t.list_indices()),
            }
        return out

    def upkeep(self, *, retention: timedelta, scalar_min_rows: int, vector_min_rows: int) -> dict[str, Any]:
        """Build the indexes a table has grown into, compact fragments, fold new rows into indexes, and drop
        versions older than `retention`."""
        from lancedb.index import Bitmap, BTree, IvfHnswSq, LabelList

        kinds = {"btree": BTree, "bitmap": Bitmap, "label_list": LabelList}
        built: list[str] = []
        for name, t in ((MEMORIES, self.memories), (EVENTS, self.events), (COLD, self.cold)):
            rows = t.count_rows()
            have = {c for i in t.list_indices() for c in (i.columns or [])}
            if rows >= scalar_min_rows:
                for column, kind in _SCALAR_INDEXES[name]:
                    if column not in have:
                        self._retry(partial(t.create_index, column, config=kinds[kind](), replace=True))
                        built.append(f"{name}.{column}")
            if name != EVENTS and rows >= vector_min_rows and "vector" not in have:
                vector_index = IvfHnswSq(distance_type="cosine")
                self._retry(partial(t.create_index, "vector", config=vector_index, replace=True))
                built.append(f"{name}.vector")
        before = self.table_stats()
        for t in (self.memories, self.events, self.cold):
            self._retry(partial(t.optimize, cleanup_older_than=retention))
        return {"indexes_built": built, "before": before, "after": self.table_stats()}

    def purge_history(self) -> None:
        """Make deleted rows unreadable: rebuild the FTS index (its postings hold the words of deleted rows)
        and drop every old version and unreferenced file of every table."""
        if self._fts_ready:
            self._fts_ready = False
            self.ensure_fts_index()
        for name in self.table_names():
            t = self._table_named(name)
            self._retry(partial(t.optimize, cleanup_older_than=timedelta(0), delete_unverified=True))

    def versions_containing(self, needle: str) -> list[tuple[str, int]]:
        """(table, version) pairs whose rows still contain `needle` in any text column; for purge audits.
        Compared in Python, never pasted into a filter."""
        found = []
        for name in self.table_names():
            for v in self._db_for(name).open_table(name).list_versions():
                t = self._db_for(name).open_table(name)
                t.checkout(v["version"])
                data = t.to_arrow()
                texty = [
                    c
                    for c in data.column_names
                    if pa.types.is_string(data.schema.field(c).type)
                    or pa.types.is_list(data.schema.field(c).type)
                ]
                if any(needle in str(x) for c in texty for x in data.column(c).to_pylist() if x):
                    found.append((name, v["version"]))
        return found

    def purge_ids(self, namespace: str, memory_ids: Iterable[str], event_ids: Iterable[str]) -> None:
        """Delete memories from every memory table (live and retired) and their events."""
        mem_where, ev_where = (
            str(Where(namespace).ids(list(memory_ids))),
            str(Where(namespace).ids(list(event_ids))),
        )
        for name in self.memory_tables():
            t = self._table_named(name)
            self._retry(partial(t.delete, mem_where))
        self._retry(lambda: self.events.delete(ev_where))

    def purge_namespace(self, namespace: str) -> None:
        """Delete a whole namespace (not its sub-namespaces) from every table, the reflection run log included
        (its `detail` quotes episodes and lessons)."""
        where = str(Where(namespace))
        runs = [REFLECTION_RUNS] if REFLECTION_RUNS in self.table_names() else []
        for name in [*self.memory_tables(), EVENTS, *runs]:
            t = self._table_named(name)
            self._retry(partial(t.delete, where))
