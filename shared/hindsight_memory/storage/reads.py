"""Plain reads of one namespace: by id, by filter, page by page, counts and the namespaces present."""

from collections.abc import Callable, Iterable, Iterator
from typing import Any

from ..models import Memory
from .filters import Where
from .schema import SEARCH_COLUMNS, WITH_VECTOR, row_to_memory, row_vectors
from .tables import COLD, MEMORIES, Tables


class Reads(Tables):
    def get(
        self, namespace: str, ids: Iterable[str], *, with_vectors: bool = False, table: str = MEMORIES
    ) -> list[tuple[Memory, Any]]:
        ids = list(ids)
        if not ids:
            return []
        t = self._table(table)
        cols = WITH_VECTOR if with_vectors else SEARCH_COLUMNS
        rows = self._rows(t, Where(namespace).ids(ids), cols)
        return [(row_to_memory(r), row_vectors(r)) for r in self._only_namespace(namespace, rows)]

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
        t = self._table(table)
        rows = self._rows(t, build(Where(namespace)), WITH_VECTOR if with_vectors else SEARCH_COLUMNS, limit)
        return [(row_to_memory(r), row_vectors(r)) for r in self._only_namespace(namespace, rows)]

    def events_by_idem(self, namespace: str, idem_keys: Iterable[str]) -> dict[str, dict[str, Any]]:
        rows = self._rows(
            self.events,
            Where(namespace).keys_in("idem_key", idem_keys),
            ["id", "namespace", "idem_key", "memory_id"],
        )
        return {r["idem_key"]: r for r in self._only_namespace(namespace, rows)}

    def find_events(
        self, namespace: str, build: Callable[[Where], Where], limit: int | None = None
    ) -> list[dict[str, Any]]:
        return self._only_namespace(namespace, self._rows(self.events, build(Where(namespace)), None, limit))

    def count(self, namespace: str | None = None, table: str = MEMORIES) -> int:
        t = self._table(table)
        n: int = t.count_rows(str(Where(namespace))) if namespace else t.count_rows()
        return n

    def status_counts(self, namespace: str | None) -> dict[str, dict[str, int]]:
        """Memories by kind and status in one namespace, or (None) tenant-wide, for operators' metrics."""
        where = Where(namespace) if namespace else Where.all_namespaces()
        rows = self._rows(self.memories, where, ["namespace", "kind", "status"])
        out: dict[str, dict[str, int]] = {}
        for r in self._only_namespace(namespace, rows) if namespace else rows:
            out.setdefault(r["kind"], {}).setdefault(r["status"], 0)
            out[r["kind"]][r["status"]] += 1
        return out

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
        cols = WITH_VECTOR if with_vectors else SEARCH_COLUMNS
        t = self._table(table)
        for batch in t.search().where(self._sql(t, where)).select(self._cols(t, cols)).to_batches(batch_rows):
            rows = batch.to_pylist()
            rows = self._only_namespace(namespace, rows) if namespace else rows
            yield [(row_to_memory(r), row_vectors(r)) for r in rows]

    def scan_events(self, namespace: str | None, batch_rows: int = 2048) -> Iterator[list[dict[str, Any]]]:
        where = Where(namespace) if namespace else Where.all_namespaces()
        for batch in self.events.search().where(str(where)).to_batches(batch_rows):
            rows = batch.to_pylist()
            yield self._only_namespace(namespace, rows) if namespace else rows

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
        rows = self._only_namespace(
            namespace, self._rows(self.memories, Where(namespace), ["namespace", "tier"])
        )
        out: dict[str, int] = {}
        for r in rows:
            out[r["tier"] or "hot"] = out.get(r["tier"] or "hot", 0) + 1
        out["cold"] = out.get("cold", 0) + self.count(namespace, table=COLD)
        return out
