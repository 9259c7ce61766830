"""The tables of one tenant's store: connection, opening (or a stand-in while the writer has not made a table),
which tables are current (catalog.py switches them), optimistic commits with retries (conflicts.py tells a
conflict), and the namespace guards every read goes through. The other storage modules add reads, searches,
writes, upkeep and the run log to this base (see lance.py)."""

import logging
import random
import shutil
import tempfile
import threading
import time
import weakref
from collections import deque
from collections.abc import Callable
from datetime import timedelta
from typing import Any, TypeVar

import lancedb
import pyarrow as pa

from ..errors import ModelMismatch, StorageConflict
from .conflicts import is_commit_conflict
from .filters import Where
from .placeholder import Placeholder
from .schema import DIM_KEY, EVENT_SCHEMA, MODEL_KEY, added_columns, memory_schema
from .snapshot import WarmSnapshot
from .warm import WarmIndex

log = logging.getLogger(__name__)
T = TypeVar("T")

MEMORIES = "memories"
EVENTS = "events"
COLD = "cold"
CATALOG = "catalog"
CATALOG_SCHEMA = pa.schema([pa.field("key", pa.string(), nullable=False), pa.field("value", pa.string())])
# A store that may not create tables looks again this often for tables the writer has not made yet.
MISSING_TABLE_RECHECK_S = 5.0


class Tables:
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
        cold_uri: str | None = None,
    ) -> None:
        self.uri = uri
        self.cold_uri = cold_uri
        self.model_id = model_id
        self.dim = dim
        self.storage_options = storage_options or {}
        self._read_consistency = read_consistency
        self._retries = commit_retries
        self._db = lancedb.connect(
            uri, storage_options=storage_options or None, read_consistency_interval=read_consistency
        )
        # The cold tier may live in a database of its own (serverless: the bucket's cold/ prefix).
        self._cold_db = (
            lancedb.connect(
                cold_uri, storage_options=storage_options or None, read_consistency_interval=read_consistency
            )
            if cold_uri
            else self._db
        )
        if cold_uri and _exists(self._db, COLD) and not _exists(self._cold_db, COLD):
            # Archived before the cold tier had a place of its own: keep reading and writing it where it is.
            log.warning("the cold table stays beside the other tables", extra={"cold_uri": cold_uri})
            self._cold_db = self._db
        self._schema = memory_schema(dim, model_id)
        # Which memories/cold tables are current is recorded in the catalog, so a reindex can switch atomically.
        current = self.current_tables() if memories_table is None else {}
        self.memories_name = memories_table or current.get(MEMORIES, MEMORIES)
        self.cold_name = cold_table or current.get(COLD, COLD)
        # Read-only processes (create_tables=False: their role may not write the tables' prefix) read a missing
        # table as an empty stand-in and look again every `missing_recheck_s` until the writer has made it.
        self._recheck_s = MISSING_TABLE_RECHECK_S if missing_recheck_s is None else missing_recheck_s
        self._tables: dict[str, Any] = {}
        self._split_rows: dict[int, tuple[bool, float]] = {}  # id(table) -> holds split memories, when seen
        self._waiting: dict[str, tuple[str, pa.Schema, bool]] = {}
        self._scratch: Any = None
        self._looked_at = time.monotonic()
        self._tables_lock = threading.Lock()
        # Columns added since a table was written, which this process may not add (read-only): read as null.
        self._missing: dict[str, frozenset[str]] = {}
        self._missing_looked_at: dict[str, float] = {}
        self._commits = 0
        for role, name, schema, check in (
            (MEMORIES, self.memories_name, self._schema, check_model),
            (EVENTS, EVENTS, EVENT_SCHEMA, False),
            (COLD, self.cold_name, self._schema, check_model),
        ):
            table = self._open(name, schema, check_model=check, create=create_tables)
            if table is not None and schema is self._schema:
                self._add_new_columns(name, table, may_write=create_tables)
            if table is None:
                self._waiting[role] = (name, schema, check)
                table = self._placeholder(name, schema)
            self._tables[role] = table
        self._fts_ready = self._has_fts_index()
        self._fts_checked = time.monotonic()
        # A warm process answers searches from memory (0 rows: off); see storage/warm.py.
        self._warm_rows = warm_rows
        self._snapshot = WarmSnapshot(self)
        self._warm_index = WarmIndex(warm_rows, self._snapshot) if warm_rows > 0 else None
        # Commits made through this store, and how many the cached table version has seen (see _warm_version).
        self._commits, self._seen_commits, self._version, self._version_at = 0, -1, 0, 0.0
        self._version_lock = threading.Lock()
        self._changes: deque[tuple[int, dict[str, tuple[set[str], set[str]]]]] = deque(maxlen=256)
        self._written: dict[int, pa.Table] = {}  # version -> the rows an upsert wrote (recent small commits)

    # ---------------------------------------------------------------- tables
    @property
    def memories(self) -> Any:
        return self._table(MEMORIES)

    @property
    def events(self) -> Any:
        return self._table(EVENTS)

    @property
    def cold(self) -> Any:
        return self._table(COLD)

    @property
    def warm(self) -> WarmIndex | None:
        """The warm index, off while the memories table is a stand-in (it reads the real table by name)."""
        return None if MEMORIES in self._waiting else self._warm_index

    def waiting_for(self) -> list[str]:
        """Roles of the tables this read-only store has not found yet (read as empty meanwhile)."""
        return sorted(self._waiting)

    def _table(self, role: str) -> Any:
        """The live table of a role (memories, events, cold); a read-only store first looks again for tables
        the writer has made since (see _look_again)."""
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
                    if schema is self._schema:
                        self._add_new_columns(name, table, may_write=False)
                    self._tables[role] = table
                    del self._waiting[role]
                    if role == MEMORIES:
                        self._fts_checked = float("-inf")  # its full-text index may exist already

    def _placeholder(self, name: str, schema: pa.Schema) -> "Placeholder":
        """An empty table of the same schema in a private temporary database (never the store's location)."""
        if self._scratch is None:
            path = tempfile.mkdtemp(prefix="hindsight-placeholder-")
            weakref.finalize(self, shutil.rmtree, path, ignore_errors=True)
            self._scratch = lancedb.connect(path)
        return Placeholder(self._scratch.create_table(name, schema=schema), name)

    def _db_for(self, name: str) -> Any:
        """The database holding table `name`: cold tables (and their reindex generations) may live apart."""
        return self._cold_db if name.split("-", 1)[0] == COLD else self._db

    def refresh(self, roles: tuple[str, ...] = (MEMORIES, EVENTS, COLD)) -> None:
        """Read the latest version of these tables now, whatever the read-consistency interval (after waiting for
        another process's commit)."""
        for role in roles:
            self._tables[role].checkout_latest()
        with self._version_lock:
            self._version_at = float("-inf")
        self._looked_at = self._fts_checked = float("-inf")  # the writer may have made them meanwhile

    def _open(self, name: str, schema: pa.Schema, check_model: bool = False, create: bool = True) -> Any:
        """The table `name`, created if missing (or None when missing and not `create`)."""
        db = self._db_for(name)
        try:
            table = db.open_table(name)
        except (FileNotFoundError, ValueError):
            if not create:
                return None
            try:
                table = db.create_table(name, schema=schema)
            except (OSError, ValueError, RuntimeError):  # lost a creation race: open what the winner made
                table = db.open_table(name)
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

    def _add_new_columns(self, name: str, table: Any, *, may_write: bool) -> None:
        """A memories table written before a column existed gets it (all null, a metadata-only commit); a
        process that may not write notes it as missing and reads it as null until the writer adds it."""
        added = added_columns(self.dim)
        have = set(table.schema.names)
        missing = [f for f in added if f.name not in have]
        if missing and may_write:
            try:
                self._retry(lambda: table.add_columns(missing))
            except (RuntimeError, ValueError, OSError):  # another process added it first: look again
                table.checkout_latest()
            missing = [f for f in added if f.name not in set(table.schema.names)]
        self._missing[name] = frozenset(f.name for f in missing)
        self._missing_looked_at[name] = time.monotonic()

    def _missing_in(self, table: Any) -> frozenset[str]:
        """The added columns `table` lacks. Only a read-only process has any; it looks at the table's columns
        again every `missing_recheck_s`, as the writer adds them when it next opens the store."""
        name = getattr(table, "name", "")
        missing = self._missing.get(name, frozenset())
        if missing and time.monotonic() - self._missing_looked_at.get(name, 0.0) >= self._recheck_s:
            self._missing_looked_at[name] = time.monotonic()
            have = set(table.schema.names)
            missing = self._missing[name] = frozenset(c for c in missing if c not in have)
        return missing

    def _cols(self, table: Any, cols: list[str]) -> list[str]:
        """`cols` less the columns `table` does not have yet (read as null)."""
        missing = self._missing_in(table)
        return [c for c in cols if c not in missing] if missing else cols

    def _sql(self, table: Any, where: Where) -> str:
        return where.sql(self._missing_in(table))

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
        """Commits are optimistic; on a conflict with another writer, look at the latest version, back off and
        try again. Any other error is raised at once.

        Raises:
            StorageConflict: still conflicting after the configured retries.
        """
        for attempt in range(self._retries + 1):
            try:
                out = op()
                self._commits += 1
                return out
            except RuntimeError as exc:
                if not is_commit_conflict(exc):
                    raise
                if attempt == self._retries:
                    raise StorageConflict(f"commit failed after {attempt + 1} attempts: {exc}") from exc
                delay = min(2.0, 0.05 * 2**attempt) * (0.5 + random.random())
                log.warning(
                    "commit conflict, retrying", extra={"attempt": attempt + 1, "delay_s": round(delay, 3)}
                )
                time.sleep(delay)
                for table in list(self._tables.values()):
                    table.checkout_latest()  # the conflict means another writer committed since this view
        raise AssertionError("unreachable")

    # ---------------------------------------------------------------- catalog and table names
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

    # ---------------------------------------------------------------- the base read every module uses
    def _rows(
        self, table: Any, where: Where, columns: list[str] | None = None, limit: int | None = None
    ) -> list[dict[str, Any]]:
        q = table.search().where(self._sql(table, where))
        if columns:
            q = q.select(self._cols(table, columns))
        rows: list[dict[str, Any]] = q.limit(limit).to_list()  # limit None = every row (the default is 10)
        return rows

    # ---------------------------------------------------------------- guards
    @staticmethod
    def _check_scope(namespace: str, where: Where) -> None:
        if not str(where).startswith(f"namespace = '{namespace}'"):
            raise ValueError("filter is not scoped to the requested namespace")

    @staticmethod
    def _only_namespace(namespace: str, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """Defence in depth: drop (and log) any row that is not of the namespace asked for."""
        good = [r for r in rows if r.get("namespace") == namespace]
        if len(good) != len(rows):
            log.error(
                "storage returned rows of another namespace; dropped",
                extra={"dropped": len(rows) - len(good)},
            )
        return good


def _exists(db: Any, name: str) -> bool:
    try:
        db.open_table(name)
    except (FileNotFoundError, ValueError):
        return False
    return True
