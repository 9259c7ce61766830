"""The LanceDB storage adapter: the only module that imports lancedb. Every read and write is scoped to one
namespace here, whatever the caller asks, so no query path can cross namespaces."""

import logging
import random
import time
from collections.abc import Callable, Iterable, Sequence
from datetime import datetime, timedelta
from typing import Any, TypeVar

import lancedb
import numpy as np
import pyarrow as pa

from ..errors import ModelMismatch, StorageConflict
from ..models import Memory, Status
from .filters import Where
from .schema import DIM_KEY, EVENT_SCHEMA, MODEL_KEY, RUN_SCHEMA, memory_schema, memory_to_row, row_to_memory

log = logging.getLogger(__name__)
T = TypeVar("T")

MEMORIES = "memories"
EVENTS = "events"
COLD = "cold"
REFLECTION_RUNS = "reflection_runs"
# Columns a search needs; the vector is fetched only where it is used.
_SEARCH_COLUMNS = [f.name for f in memory_schema(1, "x") if f.name not in ("vector", "search_text")]
_WITH_VECTOR = [*_SEARCH_COLUMNS, "vector"]


class LanceStore:
    """Tables: `memories` (hot and warm), `events` (append-only raw log), `cold` (archived memories)."""

    def __init__(
        self,
        uri: str,
        *,
        model_id: str,
        dim: int,
        storage_options: dict[str, str] | None = None,
        read_consistency: timedelta | None = timedelta(0),
        commit_retries: int = 8,
        memories_table: str = MEMORIES,
    ) -> None:
        self.uri = uri
        self.model_id = model_id
        self.dim = dim
        self._retries = commit_retries
        self._db = lancedb.connect(uri, storage_options=storage_options or None, read_consistency_interval=read_consistency)
        self._schema = memory_schema(dim, model_id)
        self.memories = self._open(memories_table, self._schema, check_model=True)
        self.events = self._open(EVENTS, EVENT_SCHEMA)
        self.cold = self._open(COLD, self._schema, check_model=True)
        self._fts_ready = self._has_fts_index()

    # ---------------------------------------------------------------- tables
    def _open(self, name: str, schema: pa.Schema, check_model: bool = False) -> Any:
        try:
            table = self._db.open_table(name)
        except (FileNotFoundError, ValueError):
            try:
                table = self._db.create_table(name, schema=schema)
            except (OSError, ValueError, RuntimeError):  # lost a creation race: open what the winner made
                table = self._db.open_table(name)
        if check_model:
            meta = table.schema.metadata or {}
            found = meta.get(MODEL_KEY, b"").decode()
            dim = meta.get(DIM_KEY, b"0").decode()
            if found != self.model_id or int(dim) != self.dim:
                raise ModelMismatch(
                    f"table {name!r} at {self.uri} holds vectors of {found or 'unknown'} ({dim}-d), not "
                    f"{self.model_id} ({self.dim}-d); run `hindsight reindex --embedder <spec>` to re-embed, "
                    f"or configure the embedder the table was written with"
                )
        return table

    def _has_fts_index(self) -> bool:
        try:
            return any("search_text" in (i.columns or []) for i in self.memories.list_indices())
        except Exception:  # listing indices is best effort; FTS falls back to off
            return False

    def ensure_fts_index(self) -> None:
        """FTS queries need an index; it also covers rows added later, so build it once, early."""
        if self._fts_ready:
            return
        from lancedb.index import FTS

        self._retry(lambda: self.memories.create_index(
            "search_text", config=FTS(base_tokenizer="simple", stem=True, remove_stop_words=False, ascii_folding=True),
            replace=True))
        self._fts_ready = True

    def _retry(self, op: Callable[[], T]) -> T:
        """Commits are optimistic; on a conflict with another writer, back off and try again.

        Raises:
            StorageConflict: still conflicting after the configured retries.
        """
        for attempt in range(self._retries + 1):
            try:
                return op()
            except (OSError, RuntimeError, ValueError) as exc:
                if attempt == self._retries:
                    raise StorageConflict(f"commit failed after {attempt + 1} attempts: {exc}") from exc
                delay = min(2.0, 0.05 * 2**attempt) * (0.5 + random.random())
                log.warning("commit conflict, retrying", extra={"attempt": attempt + 1, "delay_s": round(delay, 3)})
                time.sleep(delay)
        raise AssertionError("unreachable")

    # ---------------------------------------------------------------- writes (the writer's only)
    def upsert(self, memories: Sequence[Memory], vectors: Sequence[Any], table: str = MEMORIES) -> None:
        """Insert or replace whole memories in one commit (merge on id)."""
        if not memories:
            return
        rows = pa.Table.from_pylist([memory_to_row(m, v) for m, v in zip(memories, vectors, strict=True)], schema=self._schema)
        t = self.cold if table == COLD else self.memories
        self._retry(lambda: t.merge_insert("id").when_matched_update_all().when_not_matched_insert_all().execute(rows))

    def append_events(self, rows: list[dict[str, Any]]) -> None:
        """Append raw events; ids are deterministic, so a redelivered batch inserts nothing twice."""
        if not rows:
            return
        data = pa.Table.from_pylist(rows, schema=EVENT_SCHEMA)
        self._retry(lambda: self.events.merge_insert("id").when_not_matched_insert_all().execute(data))

    def delete(self, namespace: str, ids: Iterable[str], table: str = MEMORIES) -> None:
        where = str(Where(namespace).ids(list(ids)))
        t = {MEMORIES: self.memories, EVENTS: self.events, COLD: self.cold}[table]
        self._retry(lambda: t.delete(where))

    def prune_versions(self, older_than: timedelta) -> None:
        """Compact files and drop table versions older than `older_than` (zero: deleted rows become unreadable)."""
        for t in (self.memories, self.events, self.cold):
            self._retry(lambda t=t: _prune(t, older_than))

    # ---------------------------------------------------------------- reads
    def _rows(self, table: Any, where: Where, columns: list[str] | None = None, limit: int | None = None) -> list[dict]:
        q = table.search().where(str(where))
        if columns:
            q = q.select(columns)
        return q.limit(limit).to_list()  # limit None = every matching row (the default would be 10)

    def get(self, namespace: str, ids: Iterable[str], *, with_vectors: bool = False, table: str = MEMORIES) -> list[tuple[Memory, Any]]:
        ids = list(ids)
        if not ids:
            return []
        t = self.cold if table == COLD else self.memories
        cols = None if with_vectors else _SEARCH_COLUMNS
        rows = self._rows(t, Where(namespace).ids(ids), cols)
        return [(row_to_memory(r), r.get("vector")) for r in self._own(namespace, rows)]

    def find(self, namespace: str, build: Callable[[Where], Where], *, with_vectors: bool = False,
             limit: int | None = None, table: str = MEMORIES) -> list[tuple[Memory, Any]]:
        """Memories of one namespace matching extra clauses added by `build`."""
        t = self.cold if table == COLD else self.memories
        rows = self._rows(t, build(Where(namespace)), None if with_vectors else _SEARCH_COLUMNS, limit)
        return [(row_to_memory(r), r.get("vector")) for r in self._own(namespace, rows)]

    def events_by_idem(self, namespace: str, idem_keys: Iterable[str]) -> dict[str, dict]:
        rows = self._rows(self.events, Where(namespace).keys_in("idem_key", idem_keys), ["id", "namespace", "idem_key", "memory_id"])
        return {r["idem_key"]: r for r in self._own(namespace, rows)}

    def find_events(self, namespace: str, build: Callable[[Where], Where], limit: int | None = None) -> list[dict]:
        return self._own(namespace, self._rows(self.events, build(Where(namespace)), None, limit))

    def vector_search(self, namespace: str, vector: np.ndarray, where: Where, limit: int,
                      table: str = MEMORIES) -> list[tuple[Memory, float, Any]]:
        """Nearest memories by cosine similarity, prefiltered by `where` (which is scoped to `namespace`)."""
        self._check_scope(namespace, where)
        t = self.cold if table == COLD else self.memories
        rows = (t.search(vector, vector_column_name="vector").distance_type("cosine")
                .where(str(where), prefilter=True).select([*_WITH_VECTOR, "_distance"]).limit(limit).to_list())
        return [(row_to_memory(r), 1.0 - float(r["_distance"]), r["vector"]) for r in self._own(namespace, rows)]

    def nearest_many(self, namespace: str, vectors: np.ndarray, where: Where, limit: int) -> list[list[tuple[Memory, float, Any]]]:
        """Batched nearest-neighbour lookups (dedup at write time): one query for many vectors."""
        self._check_scope(namespace, where)
        if len(vectors) == 0:
            return []
        rows = (self.memories.search(list(vectors), vector_column_name="vector").distance_type("cosine")
                .where(str(where), prefilter=True).limit(limit).to_list())
        out: list[list[tuple[Memory, float, Any]]] = [[] for _ in range(len(vectors))]
        for r in self._own(namespace, rows):
            out[r.get("query_index", 0)].append((row_to_memory(r), 1.0 - float(r["_distance"]), r["vector"]))
        return out

    def fts_search(self, namespace: str, text: str, where: Where, limit: int) -> list[tuple[Memory, float, Any]]:
        """BM25 over content + context. The query text goes to the FTS engine as a query, not into a filter."""
        self._check_scope(namespace, where)
        if not self._fts_ready or not text.strip():
            return []
        rows = (self.memories.search(text, query_type="fts", fts_columns="search_text")
                .where(str(where), prefilter=True).select([*_WITH_VECTOR, "_score"]).limit(limit).to_list())
        return [(row_to_memory(r), float(r["_score"]), r["vector"]) for r in self._own(namespace, rows)]

    def count(self, namespace: str | None = None, table: str = MEMORIES) -> int:
        t = {MEMORIES: self.memories, EVENTS: self.events, COLD: self.cold}[table]
        return t.count_rows(str(Where(namespace))) if namespace else t.count_rows()

    def status_counts(self, namespace: str) -> dict[str, dict[str, int]]:
        rows = self._rows(self.memories, Where(namespace), ["namespace", "kind", "status"])
        out: dict[str, dict[str, int]] = {}
        for r in self._own(namespace, rows):
            out.setdefault(r["kind"], {}).setdefault(r["status"], 0)
            out[r["kind"]][r["status"]] += 1
        return out

    # ---------------------------------------------------------------- reflection runs (budgets, deferred work)
    def _runs(self, create: bool = True) -> Any:
        """The runs table, opened on first use (most processes never reflect); None if absent and not `create`."""
        if getattr(self, "_runs_table", None) is None:
            if not create:
                try:
                    self._runs_table = self._db.open_table(REFLECTION_RUNS)
                except (FileNotFoundError, ValueError):
                    return None
            else:
                self._runs_table = self._open(REFLECTION_RUNS, RUN_SCHEMA)
        return self._runs_table

    def append_runs(self, rows: list[dict[str, Any]]) -> None:
        """Record reflection runs (usage, cost, deferred work); ids are unique per run, so retries add nothing."""
        if rows:
            data = pa.Table.from_pylist(rows, schema=RUN_SCHEMA)
            self._retry(lambda: self._runs().merge_insert("id").when_not_matched_insert_all().execute(data))

    def runs(self, namespace: str, since: datetime | None = None) -> list[dict]:
        """Reflection runs of one namespace, oldest first."""
        where = Where(namespace)
        if since is not None:
            where.time("at", ">=", since)
        table = self._runs(create=False)
        return sorted(self._own(namespace, self._rows(table, where)), key=lambda r: r["at"]) if table is not None else []

    def active_namespaces(self, since: datetime) -> set[str]:
        """Namespaces with events or reflection runs since `since` (tenant-wide maintenance only)."""
        out: set[str] = set()
        for table in (self.events, self._runs(create=False)):
            if table is None:
                continue
            column = "stored_at" if table is self.events else "at"
            where = Where.all_namespaces().time(column, ">=", since)
            out |= {r["namespace"] for r in self._rows(table, where, ["namespace"])}
        return out

    # ---------------------------------------------------------------- guards
    @staticmethod
    def _check_scope(namespace: str, where: Where) -> None:
        if not str(where).startswith(f"namespace = '{namespace}'"):
            raise ValueError("filter is not scoped to the requested namespace")

    @staticmethod
    def _own(namespace: str, rows: list[dict]) -> list[dict]:
        """Defence in depth: drop (and log) any row that is not of the namespace asked for."""
        good = [r for r in rows if r.get("namespace") == namespace]
        if len(good) != len(rows):
            log.error("storage returned rows of another namespace; dropped", extra={"dropped": len(rows) - len(good)})
        return good


def active(where: Where) -> Where:
    return where.enum_in("status", [Status.active])


def _prune(table: Any, older_than: timedelta) -> None:
    table.optimize(cleanup_older_than=older_than, delete_unverified=older_than == timedelta(0))
