"""The store's table names: switching the current memories/cold tables in one catalog commit (a reindex),
another generation of tables beside these (its target), listing every table, dropping a retired one."""

from typing import Any

import pyarrow as pa

from .tables import CATALOG, CATALOG_SCHEMA, COLD, EVENTS, MEMORIES, Tables


class Catalog(Tables):
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

    def sibling(self, *, model_id: str, dim: int, memories_table: str, cold_table: str) -> Any:
        """Another generation of memory tables in the same database (a reindex target)."""
        return type(self)(
            self.uri,
            model_id=model_id,
            dim=dim,
            storage_options=self.storage_options or None,
            read_consistency=self._read_consistency,
            commit_retries=self._retries,
            memories_table=memories_table,
            cold_table=cold_table,
            warm_rows=self._warm_rows,
            cold_uri=self.cold_uri,
        )

    def table_names(self) -> list[str]:
        names: list[str] = []
        for db in {id(d): d for d in (self._db, self._cold_db)}.values():
            token = None
            while True:
                page = db.list_tables(page_token=token)
                names += list(page.tables)
                token = page.page_token
                if not token:
                    break
        return sorted(set(names))

    def memory_tables(self) -> list[str]:
        """Every table holding memories: current, cold, and generations retired by a reindex."""
        return [n for n in self.table_names() if n.split("-", 1)[0] in (MEMORIES, COLD)]

    def drop_table(self, name: str) -> None:
        if name in (self.memories_name, self.cold_name, EVENTS, CATALOG):
            raise ValueError(f"refusing to drop live table {name!r}")
        if name in self.table_names():
            self._db_for(name).drop_table(name)

    def _table_named(self, name: str) -> Any:
        """Any table by its stored name (a retired reindex generation, the catalog...)."""
        live = {self.memories_name: self.memories, EVENTS: self.events, self.cold_name: self.cold}
        return live[name] if name in live else self._db_for(name).open_table(name)
