"""Lifecycle operations as the single writer applies them: forget, archive, restore, merge, import, upkeep and the
reindex switch, and the small records others decide (compaction's catalog cursor, reflection's run log),
registered with the writer as handlers."""

from collections.abc import Iterable
from datetime import timedelta
from typing import Any

import numpy as np

from ..embed import Embedder
from ..errors import InvalidInput
from ..models import Memory, Status
from ..storage.lance import COLD, EVENTS, MEMORIES, LanceStore
from ..text import embedding_text
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
from .reindex import drop_retired, switch
from .tiers import archive, restore


def _archive(writer: WriterState, op: ArchiveOp, pending: Pending) -> dict[str, Any]:
    return archive(writer.store, op)


def _restore(writer: WriterState, op: RestoreOp, pending: Pending) -> dict[str, Any]:
    return restore(writer.store, op)


def _merge(writer: WriterState, op: MergeOp, pending: Pending) -> dict[str, Any]:
    return merge(writer.store, op)


def _import(writer: WriterState, op: ImportOp, pending: Pending) -> dict[str, Any]:
    return import_memories(writer.store, writer.embedder, op)


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


def import_memories(store: LanceStore, embedder: Embedder, op: ImportOp) -> dict[str, Any]:
    """Write exported memories and events back as they were; vectors of another model are re-embedded.

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
    vectors: list[Any] = [None] * len(mems)
    redo = []
    for i, (m, im) in enumerate(zip(mems, op.memories, strict=True)):
        if im.vector is not None and m.embed_model == embedder.model_id and len(im.vector) == embedder.dim:
            vectors[i] = np.asarray(im.vector, dtype=np.float32)
        else:
            redo.append(i)
    if redo:
        texts = [embedding_text(mems[i].content, mems[i].context) for i in redo]
        for i, v in zip(redo, embedder.embed_passages(texts), strict=True):
            vectors[i] = v
            mems[i] = mems[i].model_copy(update={"embed_model": embedder.model_id})
    for table in (MEMORIES, COLD):
        idx = [i for i, im in enumerate(op.memories) if im.table == table]
        store.upsert([mems[i] for i in idx], [vectors[i] for i in idx], table=table)
    store.append_event_records(op.events)
    if mems:
        store.ensure_fts_index()
    return {"memories": len(mems), "events": len(op.events), "re_embedded": len(redo)}
