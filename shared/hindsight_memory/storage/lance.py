"""The LanceDB storage adapter: the storage package is the only code that imports lancedb. Every read and write
is scoped to one namespace here, whatever the caller asks, so no query path can cross namespaces.

`LanceStore` puts together one module per job: tables.py (opening, commits, guards), catalog.py (table names,
switching generations), reads.py, search.py, writes.py, maintenance.py (upkeep, purge), runlog.py (reflection
runs), browse.py (the inspector's pages and counts); snapshot.py serves the warm index."""

from .browse import Browse
from .maintenance import Maintenance
from .runlog import REFLECTION_RUNS, RunLogTable
from .search import Search
from .tables import CATALOG, COLD, EVENTS, MEMORIES, MISSING_TABLE_RECHECK_S
from .writes import Writes

__all__ = [
    "CATALOG",
    "COLD",
    "EVENTS",
    "MEMORIES",
    "MISSING_TABLE_RECHECK_S",
    "REFLECTION_RUNS",
    "LanceStore",
]


class LanceStore(Search, Browse, Writes, Maintenance, RunLogTable):
    """Tables: `memories` (hot and warm), `events` (append-only raw log), `cold` (archived memories)."""
