"""The LanceDB storage adapter: the only module that imports lancedb. Every read and write is scoped to one
namespace here, whatever the caller asks, so no query path can cross namespaces."""

import logging
import random
import shutil
import tempfile
import threading
import time
import weakref
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from datetime import datetime, timedelta
from typing import Any, TypeVar

import lancedb
import numpy as np
import pyarrow as pa

from ..errors import ModelMismatch, StorageConflict, TablesNotCreated
from ..models import Memory
from .filters import Where
from .schema import (
    DIM_KEY,
    EVENT_SCHEMA,
    MODEL_KEY,
    RUN_SCHEMA,
    TS,
    memory_schema,
    memory_to_row,
    row_to_memory,
)
from .warm import UNKNOWN_ROWID, WarmIndex

log = logging.getLogger(__name__)
T = TypeVar("T")

MEMORIES = "memories"
EVENTS = "events"
COLD = "cold"
CATALOG = "catalog"
CATALOG_SCHEMA = pa.schema([pa.field("key", pa.string(), nullable=False), pa.field("value", pa.string())])
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
REFLECTION_RUNS = "reflection_runs"
# The warm index refreshes from the rows this process's recent upserts wrote, instead of reading them back.
WRITTEN_ROWS_KEPT, WRITTEN_COMMITS_KEPT = 512, 16
# A store that may not create tables looks again this often for tables the writer has not made yet.
MISSING_TABLE_RECHECK_S = 5.0


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
        memories_table: str | None = None,
        cold_table: str | None = None,
        check_model: bool = True,
        warm_rows: int = 0,
        create_tables: bool = True,
        missing_recheck_s: float | None = None,
    ) -> None:
        self.uri = uri
        self.model_id = model_id
        self.dim = dim
        self.storage_options = storage_options or {}
        self._read_consistency = read_consistency
        self._retries = commit_retries
        self._db = lancedb.connect(
            uri, storage_options=storage_options or None, read_consistency_interval=read_consistency
        )
        self._schema = memory_schema(dim, model_id)
        # Which memories/cold tables are current is recorded in the catalog, so a reindex can switch atomically.
        current = self.current_tables() if memories_table is None else {}
        self.memories_name = memories_table or current.get(MEMORIES, MEMORIES)
        self.cold_name = cold_table or current.get(COLD, COLD)
        # Read-only processes (create_tables=False: their role may not write the tables' prefix) read a missing
        # table as an empty stand-in and look again every `missing_recheck_s` until the writer has made it.
        self._recheck_s = MISSING_TABLE_RECHECK_S if missing_recheck_s is None else missing_recheck_s
        self._tables: dict[str, Any] = {}
        self._waiting: dict[str, tuple[str, pa.Schema, bool]] = {}
        self._scratch: Any = None
        self._looked_at = time.monotonic()
        self._tables_lock = threading.Lock()
        for role, name, schema, check in (
            (MEMORIES, self.memories_name, self._schema, check_model),
            (EVENTS, EVENTS, EVENT_SCHEMA, False),
            (COLD, self.cold_name, self._schema, check_model),
        ):
            table = self._open(name, schema, check_model=check, create=create_tables)
            if table is None:
                self._waiting[role] = (name, schema, check)
                table = self._placeholder(name, schema)
            self._tables[role] = table
        self._fts_ready = self._has_fts_index()
        self._fts_checked = time.monotonic()
        # A warm process answers searches from memory (0 rows: off); see storage/warm.py.
        self._warm_rows = warm_rows
        self._snapshot = _Snapshot(self)
        self._warm_index = WarmIndex(warm_rows, self._snapshot) if warm_rows > 0 else None
        # Commits made through this store, and how many the cached table version has seen (see _warm_version).
        self._commits, self._seen_commits, self._version, self._version_at = 0, -1, 0, 0.0
        self._version_lock = threading.Lock()
        self._changes: deque[tuple[int, dict[str, tuple[set[str], set[str]]]]] = deque(maxlen=256)
        self._written: dict[int, pa.Table] = {}  # version -> the rows an upsert wrote (recent small commits)

    # ---------------------------------------------------------------- tables
    @property
    def memories(self) -> Any:
        return self._live(MEMORIES)

    @property
    def events(self) -> Any:
        return self._live(EVENTS)

    @property
    def cold(self) -> Any:
        return self._live(COLD)

    @property
    def warm(self) -> WarmIndex | None:
        """The warm index, off while the memories table is a stand-in (it reads the real table by name)."""
        return None if MEMORIES in self._waiting else self._warm_index

    def waiting_for(self) -> list[str]:
        """Roles of the tables this read-only store has not found yet (read as empty meanwhile)."""
        return sorted(self._waiting)

    def _live(self, role: str) -> Any:
        if self._waiting and time.monotonic() - self._looked_at >= self._recheck_s:
            self._look_again()
        return self._tables[role]

    def _look_again(self) -> None:
        """Switch to the tables the writer has created since; the model check applies to them as at start.

        Raises:
            ModelMismatch: a table appeared holding vectors of another embedder (raised on every read after).
        """
        with self._tables_lock:
            if not self._waiting or time.monotonic() - self._looked_at < self._recheck_s:
                return
            self._looked_at = time.monotonic()
            for role, (name, schema, check) in list(self._waiting.items()):
                try:
                    table = self._open(name, schema, check_model=check, create=False)
                except ModelMismatch:  # keep failing loudly rather than answer from the stand-in
                    self._looked_at = float("-inf")
                    raise
                if table is not None:
                    self._tables[role] = table
                    del self._waiting[role]
                    if role == MEMORIES:
                        self._fts_checked = float("-inf")  # its full-text index may exist already

    def _placeholder(self, name: str, schema: pa.Schema) -> "_Placeholder":
        """An empty table of the same schema in a private temporary database (never the store's location)."""
        if self._scratch is None:
            path = tempfile.mkdtemp(prefix="hindsight-placeholder-")
            weakref.finalize(self, shutil.rmtree, path, ignore_errors=True)
            self._scratch = lancedb.connect(path)
        return _Placeholder(self._scratch.create_table(name, schema=schema), name)

    def _open(self, name: str, schema: pa.Schema, check_model: bool = False, create: bool = True) -> Any:
        """The table `name`, created if missing (or None when missing and not `create`)."""
        try:
            table = self._db.open_table(name)
        except (FileNotFoundError, ValueError):
            if not create:
                return None
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
                    f"{self.model_id} ({self.dim}-d): run `hindsight --embedder <the table's embedder> reindex --to <new "
                    f"embedder>` to re-embed, or configure the embedder the table was written with"
                )
        return table

    def _has_fts_index(self) -> bool:
        try:
            return any("search_text" in (i.columns or []) for i in self.memories.list_indices())
        except Exception:  # listing indices is best effort; FTS falls back to off
            return False

    def _warm_version(self) -> int:
        """The memories table's version as the warm index must see it: at once after this process's own
        commits, within the read-consistency interval for another's (asked no more often: each ask is a hop
        through LanceDB's event loop, and on S3 a listing). Under a lock: recall asks from two threads at once
        (both channels), and neither may get the version from before a commit that had already returned."""
        interval = self._read_consistency.total_seconds() if self._read_consistency is not None else 0.0
        with self._version_lock:
            now = time.monotonic()
            commits = self._commits
            if commits != self._seen_commits or now - self._version_at >= interval:
                self._version, self._seen_commits, self._version_at = self.memories.version, commits, now
            return self._version

    def fts_ready(self) -> bool:
        """Whether full-text search works; another process may build the index, so look again now and then."""
        if not self._fts_ready and time.monotonic() - self._fts_checked > 5.0:
            self._fts_checked = time.monotonic()
            self._fts_ready = self._has_fts_index()
        return self._fts_ready

    def ensure_fts_index(self) -> None:
        """FTS queries need an index; it also covers rows added later, so build it once, early."""
        if self._fts_ready:
            return
        from lancedb.index import FTS

        self._retry(
            lambda: self.memories.create_index(
                "search_text",
                config=FTS(base_tokenizer="simple", stem=True, remove_stop_words=False, ascii_folding=True),
                replace=True,
            )
        )
        self._fts_ready = True

    def _retry(self, op: Callable[[], T]) -> T:
        """Commits are optimistic; on a conflict with another writer, back off and try again.

        Raises:
            StorageConflict: still conflicting after the configured retries.
        """
        for attempt in range(self._retries + 1):
            try:
                out = op()
                self._commits += 1
                return out
            except (OSError, RuntimeError, ValueError) as exc:
                if attempt == self._retries:
                    raise StorageConflict(f"commit failed after {attempt + 1} attempts: {exc}") from exc
                delay = min(2.0, 0.05 * 2**attempt) * (0.5 + random.random())
                log.warning(
                    "commit conflict, retrying", extra={"attempt": attempt + 1, "delay_s": round(delay, 3)}
                )
                time.sleep(delay)
        raise AssertionError("unreachable")

    # ---------------------------------------------------------------- writes (the writer's only)
    def upsert(self, memories: Sequence[Memory], vectors: Sequence[Any], table: str = MEMORIES) -> None:
        """Insert or replace whole memories in one commit (merge on id)."""
        if not memories:
            return
        rows = pa.Table.from_pylist(
            [memory_to_row(m, v) for m, v in zip(memories, vectors, strict=True)], schema=self._schema
        )
        t = self.cold if table == COLD else self.memories
        res = self._retry(
            lambda: t.merge_insert("id").when_matched_update_all().when_not_matched_insert_all().execute(rows)
        )
        if table == MEMORIES:
            self._note(res.version, memories, (), rows)

    def append_events(self, rows: list[dict[str, Any]]) -> None:
        """Append raw events; ids are deterministic, so a redelivered batch inserts nothing twice."""
        if not rows:
            return
        data = pa.Table.from_pylist(rows, schema=EVENT_SCHEMA)
        self._retry(lambda: self.events.merge_insert("id").when_not_matched_insert_all().execute(data))

    def delete(self, namespace: str, ids: Iterable[str], table: str = MEMORIES) -> None:
        ids = list(ids)
        where = str(Where(namespace).ids(ids))
        t = {MEMORIES: self.memories, EVENTS: self.events, COLD: self.cold}[table]
        res = self._retry(lambda: t.delete(where))
        if table == MEMORIES:
            self._note(res.version, (), [(namespace, i) for i in ids])

    def _note(
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

    # ---------------------------------------------------------------- reads
    def _rows(
        self, table: Any, where: Where, columns: list[str] | None = None, limit: int | None = None
    ) -> list[dict]:
        q = table.search().where(str(where))
        if columns:
            q = q.select(columns)
        return q.limit(limit).to_list()  # limit None = every matching row (the default would be 10)

    def get(
        self, namespace: str, ids: Iterable[str], *, with_vectors: bool = False, table: str = MEMORIES
    ) -> list[tuple[Memory, Any]]:
        ids = list(ids)
        if not ids:
            return []
        t = self.cold if table == COLD else self.memories
        cols = None if with_vectors else _SEARCH_COLUMNS
        rows = self._rows(t, Where(namespace).ids(ids), cols)
        return [(row_to_memory(r), r.get("vector")) for r in self._own(namespace, rows)]

    def find(
        self,
        namespace: str,
        build: Callable[[Where], Where],
        *,
        with_vectors: bool = False,
        limit: int | None = None,
        table: str = MEMORIES,
    ) -> list[tuple[Memory, Any]]:
        """Memories of one namespace matching extra clauses added by `build`."""
        t = self.cold if table == COLD else self.memories
        rows = self._rows(t, build(Where(namespace)), None if with_vectors else _SEARCH_COLUMNS, limit)
        return [(row_to_memory(r), r.get("vector")) for r in self._own(namespace, rows)]

    def neighbours(
        self, namespace: str, build: Callable[[Where], Where], limit: int
    ) -> list[tuple[Memory, Any]]:
        """Like `find` with vectors, for recall's adjacent-turn lookups: answered from memory when warm."""
        if self.warm is not None:
            where = build(Where(namespace))
            self._check_scope(namespace, where)
            hits = self.warm.rows(where, limit, self._warm_version())
            if hits is not None:
                return [(m, v) for m, _, v in self._memories(namespace, hits)]
        return self.find(namespace, build, with_vectors=True, limit=limit)

    def _memories(
        self, namespace: str, hits: list[tuple[dict, float, Any]]
    ) -> list[tuple[Memory, float, Any]]:
        mine = {id(r) for r in self._own(namespace, [r for r, _, _ in hits])}
        return [(row_to_memory(r), score, v) for r, score, v in hits if id(r) in mine]

    def events_by_idem(self, namespace: str, idem_keys: Iterable[str]) -> dict[str, dict]:
        rows = self._rows(
            self.events,
            Where(namespace).keys_in("idem_key", idem_keys),
            ["id", "namespace", "idem_key", "memory_id"],
        )
        return {r["idem_key"]: r for r in self._own(namespace, rows)}

    def find_events(
        self, namespace: str, build: Callable[[Where], Where], limit: int | None = None
    ) -> list[dict]:
        return self._own(namespace, self._rows(self.events, build(Where(namespace)), None, limit))

    def vector_search(
        self, namespace: str, vector: np.ndarray, where: Where, limit: int, table: str = MEMORIES
    ) -> list[tuple[Memory, float, Any]]:
        """Nearest memories by cosine similarity, prefiltered by `where` (which is scoped to `namespace`)."""
        self._check_scope(namespace, where)
        if table == MEMORIES and self.warm is not None:
            hits = self.warm.vector(where, vector, limit, self._warm_version())
            if hits is not None:
                return self._memories(namespace, hits)
        t = self.cold if table == COLD else self.memories
        rows = (
            t.search(vector, vector_column_name="vector")
            .distance_type("cosine")
            .where(str(where), prefilter=True)
            .select([*_WITH_VECTOR, "_distance"])
            .limit(limit)
            .to_list()
        )
        return [
            (row_to_memory(r), 1.0 - float(r["_distance"]), r["vector"]) for r in self._own(namespace, rows)
        ]

    def nearest_many(
        self, namespace: str, vectors: np.ndarray, where: Where, limit: int
    ) -> list[list[tuple[Memory, float, Any]]]:
        """Batched nearest-neighbour lookups (dedup at write time): one query for many vectors."""
        self._check_scope(namespace, where)
        if len(vectors) == 0:
            return []
        rows = (
            self.memories.search(list(vectors), vector_column_name="vector")
            .distance_type("cosine")
            .where(str(where), prefilter=True)
            .limit(limit)
            .to_list()
        )
        out: list[list[tuple[Memory, float, Any]]] = [[] for _ in range(len(vectors))]
        for r in self._own(namespace, rows):
            out[r.get("query_index", 0)].append((row_to_memory(r), 1.0 - float(r["_distance"]), r["vector"]))
        return out

    def fts_search(
        self, namespace: str, text: str, where: Where, limit: int
    ) -> list[tuple[Memory, float, Any]]:
        """BM25 over content + context. The query text goes to the FTS engine as a query, not into a filter."""
        self._check_scope(namespace, where)
        if not self.fts_ready() or not text.strip():
            return []
        if self.warm is not None:
            tokens = [t.text for t in self.memories.tokenize(text, column="search_text")]
            hits = self.warm.text(where, tokens, limit, self._warm_version())
            if hits is not None:
                return self._memories(namespace, hits)
        rows = (
            self.memories.search(text, query_type="fts", fts_columns="search_text")
            .where(str(where), prefilter=True)
            .select([*_WITH_VECTOR, "_score"])
            .limit(limit)
            .to_list()
        )
        return [(row_to_memory(r), float(r["_score"]), r["vector"]) for r in self._own(namespace, rows)]

    def count(self, namespace: str | None = None, table: str = MEMORIES) -> int:
        t = {MEMORIES: self.memories, EVENTS: self.events, COLD: self.cold}[table]
        return t.count_rows(str(Where(namespace))) if namespace else t.count_rows()

    def status_counts(self, namespace: str | None) -> dict[str, dict[str, int]]:
        """Memories by kind and status in one namespace, or (None) tenant-wide, for operators' metrics."""
        where = Where(namespace) if namespace else Where.all_namespaces()
        rows = self._rows(self.memories, where, ["namespace", "kind", "status"])
        out: dict[str, dict[str, int]] = {}
        for r in self._own(namespace, rows) if namespace else rows:
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
        return (
            sorted(self._own(namespace, self._rows(table, where)), key=lambda r: r["at"])
            if table is not None
            else []
        )

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

    # ---------------------------------------------------------------- lifecycle: catalog, scans, upkeep, purge
    def catalog(self) -> dict[str, str]:
        """Small key/value records: which memories/cold tables are current, compaction cursors. Read-only here."""
        try:
            rows = self._db.open_table(CATALOG).search().limit(None).to_list()
        except (FileNotFoundError, ValueError):
            return {}
        return {r["key"]: r["value"] for r in rows}

    def current_tables(self) -> dict[str, str]:
        cat = self.catalog()
        return {k: cat[k] for k in (MEMORIES, COLD) if k in cat}

    def set_catalog(self, entries: dict[str, str]) -> None:
        """Write entries in ONE commit, so readers see a table switch happen all at once or not at all."""
        table = self._open(CATALOG, CATALOG_SCHEMA)
        data = pa.Table.from_pylist(
            [{"key": k, "value": v} for k, v in entries.items()], schema=CATALOG_SCHEMA
        )
        self._retry(
            lambda: (
                table.merge_insert("key")
                .when_matched_update_all()
                .when_not_matched_insert_all()
                .execute(data)
            )
        )

    def sibling(self, *, model_id: str, dim: int, memories_table: str, cold_table: str) -> "LanceStore":
        """Another generation of memory tables in the same database (a reindex target)."""
        return LanceStore(
            self.uri,
            model_id=model_id,
            dim=dim,
            storage_options=self.storage_options or None,
            read_consistency=self._read_consistency,
            commit_retries=self._retries,
            memories_table=memories_table,
            cold_table=cold_table,
            warm_rows=self._warm_rows,
        )

    def table_names(self) -> list[str]:
        names: list[str] = []
        token = None
        while True:
            page = self._db.list_tables(page_token=token)
            names += list(page.tables)
            token = page.page_token
            if not token:
                return sorted(names)

    def memory_tables(self) -> list[str]:
        """Every table holding memories: current, cold, and generations retired by a reindex."""
        return [n for n in self.table_names() if n.split("-", 1)[0] in (MEMORIES, COLD)]

    def drop_table(self, name: str) -> None:
        if name in (self.memories_name, self.cold_name, EVENTS, CATALOG):
            raise ValueError(f"refusing to drop live table {name!r}")
        self._db.drop_table(name, ignore_missing=True)

    def _table(self, table: str) -> Any:
        """A live table by its role (memories, events, cold)."""
        return {MEMORIES: self.memories, EVENTS: self.events, COLD: self.cold}[table]

    def _physical(self, name: str) -> Any:
        """Any table by its stored name (a retired reindex generation, the catalog...)."""
        live = {self.memories_name: self.memories, EVENTS: self.events, self.cold_name: self.cold}
        return live[name] if name in live else self._db.open_table(name)

    def purge_ids(self, namespace: str, memory_ids: Iterable[str], event_ids: Iterable[str]) -> None:
        """Delete memories from every memory table (live and retired) and their events."""
        mem_where, ev_where = (
            str(Where(namespace).ids(list(memory_ids))),
            str(Where(namespace).ids(list(event_ids))),
        )
        for name in self.memory_tables():
            t = self._physical(name)
            self._retry(lambda t=t: t.delete(mem_where))
        self._retry(lambda: self.events.delete(ev_where))

    def purge_namespace(self, namespace: str) -> None:
        """Delete a whole namespace (not its sub-namespaces) from every table, the reflection run log included
        (its `detail` quotes episodes and lessons)."""
        where = str(Where(namespace))
        runs = [REFLECTION_RUNS] if REFLECTION_RUNS in self.table_names() else []
        for name in [*self.memory_tables(), EVENTS, *runs]:
            t = self._physical(name)
            self._retry(lambda t=t: t.delete(where))

    def purge_runs(self, namespace: str, run_ids: Iterable[str]) -> None:
        """Delete reflection runs of one namespace by id."""
        table = self._runs(create=False)
        if table is not None and (ids := list(run_ids)):
            where = str(Where(namespace).ids(ids))
            self._retry(lambda: table.delete(where))

    def scan(
        self,
        namespace: str | None,
        table: str = MEMORIES,
        *,
        with_vectors: bool = False,
        batch_rows: int = 2048,
    ) -> Iterator[list[tuple[Memory, Any]]]:
        """Every memory of a namespace (None: of all namespaces, for maintenance only), page by page."""
        where = Where(namespace) if namespace else Where.all_namespaces()
        cols = _WITH_VECTOR if with_vectors else _SEARCH_COLUMNS
        for batch in self._table(table).search().where(str(where)).select(cols).to_batches(batch_rows):
            rows = batch.to_pylist()
            rows = self._own(namespace, rows) if namespace else rows
            yield [(row_to_memory(r), r.get("vector")) for r in rows]

    def scan_events(self, namespace: str | None, batch_rows: int = 2048) -> Iterator[list[dict]]:
        where = Where(namespace) if namespace else Where.all_namespaces()
        for batch in self.events.search().where(str(where)).to_batches(batch_rows):
            rows = batch.to_pylist()
            yield self._own(namespace, rows) if namespace else rows

    def append(self, memories: Sequence[Memory], vectors: Sequence[Any], table: str = MEMORIES) -> None:
        """Plain append without the merge on id: only for rows known to be new (bulk copies, benches)."""
        if memories:
            rows = pa.Table.from_pylist(
                [memory_to_row(m, v) for m, v in zip(memories, vectors, strict=True)], schema=self._schema
            )
            self._retry(lambda: self._table(table).add(rows))

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

    def foreign_ids(self, namespace: str, ids: Iterable[str], table: str = MEMORIES) -> set[str]:
        """Ids that already belong to ANOTHER namespace (an import must never overwrite those rows)."""
        ids = list(ids)
        if not ids:
            return set()
        rows = self._rows(self._table(table), Where.all_namespaces().ids(ids), ["id", "namespace"])
        return {r["id"] for r in rows if r["namespace"] != namespace}

    def namespaces(self, table: str = MEMORIES) -> list[str]:
        return sorted(
            {r["namespace"] for r in self._rows(self._table(table), Where.all_namespaces(), ["namespace"])}
        )

    def subtree(self, namespace: str) -> list[str]:
        """`namespace` and every namespace under it ("alice", "alice/p1", ...) that holds rows in any table."""
        where = Where(namespace, subtree=True)
        found = {namespace}
        for t in (self.memories, self.cold, self.events):
            found |= {r["namespace"] for r in self._rows(t, where, ["namespace"])}
        return sorted(n for n in found if n == namespace or n.startswith(namespace + "/"))

    def tier_counts(self, namespace: str) -> dict[str, int]:
        rows = self._own(namespace, self._rows(self.memories, Where(namespace), ["namespace", "tier"]))
        out: dict[str, int] = {}
        for r in rows:
            out[r["tier"] or "hot"] = out.get(r["tier"] or "hot", 0) + 1
        out["cold"] = out.get("cold", 0) + self.count(namespace, table=COLD)
        return out

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
                        self._retry(
                            lambda t=t, c=column, k=kind: t.create_index(c, config=kinds[k](), replace=True)
                        )
                        built.append(f"{name}.{column}")
            if name != EVENTS and rows >= vector_min_rows and "vector" not in have:
                self._retry(
                    lambda t=t: t.create_index(
                        "vector", config=IvfHnswSq(distance_type="cosine"), replace=True
                    )
                )
                built.append(f"{name}.vector")
        before = self.table_stats()
        for t in (self.memories, self.events, self.cold):
            self._retry(lambda t=t: t.optimize(cleanup_older_than=retention))
        return {"indexes_built": built, "before": before, "after": self.table_stats()}

    def purge_history(self) -> None:
        """Make deleted rows unreadable: rebuild the FTS index (its postings hold the words of deleted rows)
        and drop every old version and unreferenced file of every table."""
        if self._fts_ready:
            self._fts_ready = False
            self.ensure_fts_index()
        for name in self.table_names():
            t = self._physical(name)
            self._retry(lambda t=t: t.optimize(cleanup_older_than=timedelta(0), delete_unverified=True))

    def versions_containing(self, needle: str) -> list[tuple[str, int]]:
        """(table, version) pairs whose rows still contain `needle` in any text column; for purge audits.
        Compared in Python, never pasted into a filter."""
        found = []
        for name in self.table_names():
            for v in self._db.open_table(name).list_versions():
                t = self._db.open_table(name)
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
            log.error(
                "storage returned rows of another namespace; dropped",
                extra={"dropped": len(rows) - len(good)},
            )
        return good


class _Snapshot:
    """The warm index's reads: one private handle on the memories table, pinned to a version per refresh so
    every read of a refresh sees the same commit."""

    def __init__(self, store: LanceStore) -> None:
        self._store = store
        self._table: Any = None
        self._name = ""

    def pin(self) -> int:
        if self._table is None or self._name != self._store.memories_name:
            self._name = self._store.memories_name
            self._table = self._store._db.open_table(self._name)
        self._table.checkout_latest()
        version = self._table.version
        self._table.checkout(version)
        return version

    def fetch(self, where: str, *, with_vector: bool) -> pa.Table:
        cols = [*_WITH_VECTOR, "search_text"] if with_vector else ["id"]
        return self._table.search().where(where).select(cols).with_row_id(True).limit(None).to_arrow()

    def count(self, where: str) -> int:
        return self._table.count_rows(where)

    def changes(self, since: int, until: int) -> dict[str, tuple[set[str], set[str]]] | None:
        """Ids written and deleted per namespace by versions since+1 .. until, if this process made every one
        of those commits and noted them; else None."""
        entries = sorted((v, c) for v, c in list(self._store._changes) if since < v <= until)
        if [v for v, _ in entries] != list(range(since + 1, until + 1)):
            return None
        out: dict[str, tuple[set[str], set[str]]] = {}
        for _, change in entries:
            for ns, (written, deleted) in change.items():
                have = out.setdefault(ns, (set(), set()))
                have[0].update(written)
                have[1].update(deleted)
        return out

    def written(self, since: int, until: int, namespace: str, ids: set[str]) -> pa.Table | None:
        """The rows of `namespace` with these ids as this process's commits since+1 .. until wrote them (the
        latest write of each), with an unknown row id; None unless every commit that wrote one is still kept."""
        kept = dict(self._store._written)
        out: dict[str, pa.Table] = {}
        for v in range(since + 1, until + 1):
            rows = kept.get(v)
            if rows is None:
                continue
            ids_ns = zip(rows.column("id").to_pylist(), rows.column("namespace").to_pylist(), strict=True)
            for j, (i, ns) in enumerate(ids_ns):
                if ns == namespace and i in ids:
                    out[i] = rows.slice(j, 1)
        if set(out) != ids:
            return None  # some were written by a commit no longer kept (or deleted since: then read them)
        t = pa.concat_tables(list(out.values()))
        return t.append_column("_rowid", pa.array([UNKNOWN_ROWID] * len(t), type=pa.uint64()))

    def tokenize(self, texts: list[str]) -> list[list[str]] | None:
        """Words as the table's FTS index sees them (its tokenizer, stemmer and folding), or None without one.
        Many texts go through one call, joined by a marker word; a text containing the marker itself is rare
        and then each text is tokenized alone."""
        if not self._store.fts_ready():
            return None
        table = self._table
        words = [t.text for t in table.tokenize(f" {_MARK} ".join(texts), column="search_text")]
        out: list[list[str]] = [[]]
        for w in words:
            if w == _MARK:
                out.append([])
            else:
                out[-1].append(w)
        if len(out) != len(texts):
            return [[t.text for t in table.tokenize(text, column="search_text")] for text in texts]
        return out


_MARK = "qqhsmarkqq"  # survives the tokenizer unchanged (no stem, no folding)


def _from_iso(value: Any) -> Any:
    return datetime.fromisoformat(value) if isinstance(value, str) and value else (value or None)


class _Placeholder:
    """Stands in for a table the writer has not created yet: reads answer as on an empty table; anything that
    would change it raises, since the stand-in is private to this process and the real table is not ours to make."""

    _CHANGES = frozenset(
        {
            "add",
            "add_columns",
            "alter_columns",
            "cleanup_old_versions",
            "compact_files",
            "create_fts_index",
            "create_index",
            "create_scalar_index",
            "delete",
            "drop_columns",
            "drop_index",
            "merge",
            "merge_insert",
            "optimize",
            "replace_field_metadata",
            "restore",
            "update",
            "update_field_metadata",
        }
    )

    def __init__(self, table: Any, name: str) -> None:
        self._table = table
        self._name = name

    def __getattr__(self, attr: str) -> Any:
        if attr in self._CHANGES:
            raise TablesNotCreated(
                f"table {self._name!r} does not exist yet and this process may not create it "
                f"(create_tables=False): writes go through the store queue, whose writer creates it"
            )
        return getattr(self._table, attr)
