"""A stand-in for a table the writer has not created yet (read-only processes; see Tables._open)."""

from typing import Any

from ..errors import TablesNotCreated


class Placeholder:
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
