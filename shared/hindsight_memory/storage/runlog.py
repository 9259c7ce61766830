"""The reflection run log table (budgets, deferred work), opened on first use."""

from collections.abc import Iterable
from datetime import datetime
from typing import Any

import pyarrow as pa

from .filters import Where
from .schema import RUN_SCHEMA
from .tables import Tables

REFLECTION_RUNS = "reflection_runs"


class RunLogTable(Tables):
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

    def purge_runs(self, namespace: str, run_ids: Iterable[str]) -> None:
        """Delete reflection runs of one namespace by id."""
        table = self._runs(create=False)
        if table is not None and (ids := list(run_ids)):
            where = str(Where(namespace).ids(ids))
            self._retry(lambda: table.delete(where))

    def runs(self, namespace: str, since: datetime | None = None) -> list[dict[str, Any]]:
        """Reflection runs of one namespace, oldest first."""
        where = Where(namespace)
        if since is not None:
            where.time("at", ">=", since)
        table = self._runs(create=False)
        return (
            sorted(self._only_namespace(namespace, self._rows(table, where)), key=lambda r: r["at"])
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
