"""The warm index's reads of the memories table (see warm.py): one private handle, pinned per refresh."""

from typing import TYPE_CHECKING, Any

import pyarrow as pa

from .schema import WITH_VECTOR
from .warm_state import UNKNOWN_ROWID

if TYPE_CHECKING:
    from .tables import Tables


class WarmSnapshot:
    """The warm index's reads: one private handle on the memories table, pinned to a version per refresh so
    every read of a refresh sees the same commit."""

    def __init__(self, store: "Tables") -> None:
        self._store = store
        self._table: Any = None
        self._name = ""

    def pin(self) -> int:
        if self._table is None or self._name != self._store.memories_name:
            self._name = self._store.memories_name
            self._table = self._store._db.open_table(self._name)
        self._table.checkout_latest()
        version: int = self._table.version
        self._table.checkout(version)
        return version

    def fetch(self, where: str, *, with_vector: bool) -> pa.Table:
        cols = self._store._cols(self._table, [*WITH_VECTOR, "search_text"]) if with_vector else ["id"]
        return self._table.search().where(where).select(cols).with_row_id(True).limit(None).to_arrow()

    def count(self, where: str) -> int:
        n: int = self._table.count_rows(where)
        return n

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
