"""Lifecycle operations as the single writer applies them: forget, archive, restore, merge, import, upkeep and the
reindex switch, and the small records others decide (compaction's catalog cursor, reflection's run log),
registered with the writer as handlers."""

from collections.abc import Iterable
from datetime import timedelta
from typing import Any

import numpy as np

from ..embed import Embedder
from ..embed.passages import PassagePlan
from ..errors import InvalidInput
from ..models import Memory, Status
from ..storage.lance import COLD, EVENTS, MEMORIES, LanceStore
from ..writer.context import Handler, Pending, WriterState
from ..writer.messages import (
    ArchiveOp,
    CatalogOp,
    ForgetOp,
    ImportOp,
    MergeOp,
    ReindexOp,
    RestoreOp,
    RunOp,
    UpkeepOp,
)
from .forget import MERGED_FROM, forget
from .reindex import drop_retired, reembed, switch
from .tiers import archive, restore


def _archive(writer: WriterState, op: ArchiveOp, pending: Pending) -> dict[str, Any]:
    return archive(writer.store, op)


def _restore(writer: WriterState, op: RestoreOp, pending: Pending) -> dict[str, Any]:
    return restore(writer.store, op)


def _merge(writer: WriterState, op: MergeOp, pending: Pending) -> dict[str, Any]:
    return merge(writer.store, op)


def _import(writer: WriterState, op: ImportOp, pending: Pending) -> dict[str, Any]:
    return import_memories(writer.store, writer.embedder, op, writer.passages)


def _forget(writer: WriterState, op: ForgetOp, pending: Pending) -> dict[str, Any]:
    return forget(writer.store, op)


def _upkeep(writer: WriterState, op: UpkeepOp, pending: Pending) -> dict[str, Any]:
    retention = timedelta(hours=op.retention_hours)
    out = writer.store.upkeep(
        retention=retention, scalar_min_rows=op.scalar_min_rows, vector_min_rows=op.vector_min_rows
    )
    return {**out, "dropped_tables": drop_retired(writer.store, retention)}


def _catalog(writer: WriterState, op: CatalogOp, pending: Pending) -> dict[str, Any]:
    writer.store.set_catalog(op.entries)
    return {"catalog": sorted(op.entries)}


def _runs(writer: WriterState, op: RunOp, pending: Pending) -> dict[str, Any]:
    writer.store.append_runs([r.model_dump() for r in op.rows])
    return {"runs": len(op.rows)}


def _switch(writer: WriterState, op: ReindexOp, pending: Pending) -> dict[str, Any]:
    return switch(writer, op)


# Registered with the writer by service.build_writer. Each commits on its own, after the batch's commit (a forget
# must win over a store of the same batch).
HANDLERS: dict[type, Handler] = {
    ForgetOp: Handler(_forget, after_commit=True),
    ArchiveOp: Handler(_archive, after_commit=True),
    RestoreOp: Handler(_restore, after_commit=True),
    MergeOp: Handler(_merge, after_commit=True),
    ImportOp: Handler(_import, after_commit=True),
    UpkeepOp: Handler(_upkeep, after_commit=True),
    ReindexOp: Handler(_switch, after_commit=True),
    CatalogOp: Handler(_catalog, after_commit=True),
    RunOp: Handler(_runs, after_commit=True),
}


def merge(store: LanceStore, op: MergeOp) -> dict[str, Any]:
    """`keep` takes the absorbed memories' sources, counts and labels; the absorbed rows go (their events stay,
    and `keep` lists them, so forgetting an absorbed id still finds its content)."""
    found = {m.id: (m, v) for m, v in store.get(op.namespace, [op.keep, *op.absorb], with_vectors=True)}
    if op.keep not in found or found[op.keep][0].status != Status.active:
        return {"merged": 0}
    keep, vec = found[op.keep]
    gone = [
        found[i][0]
        for i in op.absorb
        if i in found
        and i != op.keep
        and found[i][0].status == Status.active
        and not found[i][0].supersedes
        and found[i][0].kind == keep.kind
    ]
    if not gone:
        return {"merged": 0}
    merged_from = list(keep.metadata.get(MERGED_FROM, []))
    for m in gone:
        merged_from += [i for i in [m.id, *m.metadata.get(MERGED_FROM, [])] if i not in merged_from]
    everyone = [keep, *gone]
    merged = keep.model_copy(
        update={
            "seen_count": sum(m.seen_count for m in everyone),
            "access_count": sum(m.access_count for m in everyone),
            "importance": max(m.importance for m in everyone),
            "confidence": max(m.confidence for m in everyone),
            "tags": _union(m.tags for m in everyone),
            "entities": _union(m.entities for m in everyone),
            "source_ids": _union(m.source_ids for m in everyone),
            "last_seen_at": max((m.last_seen_at for m in everyone if m.last_seen_at), default=None),
            "last_accessed_at": max(
                (m.last_accessed_at for m in everyone if m.last_accessed_at), default=None
            ),
            "metadata": {**keep.metadata, MERGED_FROM: merged_from},
            "updated_at": op.at,
        }
    )
    store.upsert([merged], [vec])
    store.delete(op.namespace, [m.id for m in gone])
    return {"merged": len(gone), "into": keep.id}


def _union(lists: Iterable[list[str]]) -> list[str]:
    out: list[str] = []
    for values in lists:
        out += [v for v in values if v not in out]
    return out


def import_memories(
    store: LanceStore, embedder: Embedder, op: ImportOp, plan: PassagePlan | None = None
) -> dict[str, Any]:
    """Write exported memories and events back as they were; vectors of another model (or none) are embedded
    anew. Memories already there as exported (same id, same last update) are skipped: a re-run after an
    interruption costs a lookup, not an embedding.

    Raises:
        InvalidInput: a record of another namespace, a malformed id, or an id owned by another namespace.
    """
    ns = op.namespace
    mems = [Memory.model_validate(im.memory) for im in op.memories]
    if any(m.namespace != ns for m in mems) or any(e.get("namespace") != ns for e in op.events):
        raise InvalidInput("every imported record must belong to the namespace being imported")
    ids = [m.id for m in mems]
    event_ids = [str(e.get("id")) for e in op.events]
    taken = (
        store.foreign_ids(ns, ids)
        | store.foreign_ids(ns, ids, COLD)
        | store.foreign_ids(ns, event_ids, EVENTS)
    )
    if taken:
        raise InvalidInput(f"{len(taken)} imported ids already belong to another namespace; nothing imported")
    have = {
        (table, m.id): m.updated_at for table in (MEMORIES, COLD) for m, _ in store.get(ns, ids, table=table)
    }
    todo = [i for i, im in enumerate(op.memories) if have.get((im.table, mems[i].id)) != mems[i].updated_at]
    vectors: dict[int, Any] = {}
    redo = []
    for i in todo:
        v = _exported_vectors(op.memories[i].vector, mems[i], embedder)
        if v is None:
            redo.append(i)
        else:
            vectors[i] = v
    redone, redo_vectors = reembed([mems[i] for i in redo], embedder, plan or PassagePlan())
    for i, m, v in zip(redo, redone, redo_vectors, strict=True):
        mems[i], vectors[i] = m, v
    for table in (MEMORIES, COLD):
        idx = [i for i in todo if op.memories[i].table == table]
        store.upsert([mems[i] for i in idx], [vectors[i] for i in idx], table=table)
    store.append_event_records(op.events)
    if todo:
        store.ensure_fts_index()
    return {
        "memories": len(todo),
        "events": len(op.events),
        "re_embedded": len(redo),
        "skipped": len(mems) - len(todo),
    }


def _exported_vectors(exported: Any, m: Memory, embedder: Embedder) -> np.ndarray | None:
    """An export's vectors when usable as they are: this model's, of its dimension, one per passage the memory
    notes (one vector for a memory embedded whole); None means embed it again."""
    if exported is None or m.embed_model != embedder.model_id:
        return None
    v = np.asarray(exported, dtype=np.float32)
    rows = len(m.passages) if m.passages else 1
    shape_ok = v.shape == (embedder.dim,) if rows == 1 else v.shape == (rows, embedder.dim)
    return v if shape_ok and np.isfinite(v).all() else None
