"""Lifecycle operations as the single writer applies them: archive, restore, merge, import, upkeep, reindex."""

from datetime import timedelta
from typing import Any

import numpy as np

from ..errors import InvalidInput
from ..models import Memory, Status
from ..storage.lance import COLD, EVENTS, MEMORIES, LanceStore
from ..text import normalize
from ..writer.messages import ArchiveOp, ImportOp, MergeOp, ReindexOp, RestoreOp, UpkeepOp
from .forget import MERGED_FROM
from .tiers import archive, restore


def apply_lifecycle(writer: Any, op: Any) -> dict:
    if isinstance(op, ArchiveOp):
        return archive(writer.store, op)
    if isinstance(op, RestoreOp):
        return restore(writer.store, op)
    if isinstance(op, MergeOp):
        return merge(writer.store, op)
    if isinstance(op, ImportOp):
        return import_memories(writer.store, writer.embedder, op)
    if isinstance(op, UpkeepOp):
        return writer.store.upkeep(
            retention=timedelta(hours=op.retention_hours),
            scalar_min_rows=op.scalar_min_rows,
            vector_min_rows=op.vector_min_rows,
        )
    if isinstance(op, ReindexOp):
        from .reindex import switch

        return switch(writer, op)
    raise TypeError(f"not a lifecycle op: {type(op).__name__}")


def merge(store: LanceStore, op: MergeOp) -> dict:
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


def _union(lists: Any) -> list:
    out: list = []
    for values in lists:
        out += [v for v in values if v not in out]
    return out


def import_memories(store: LanceStore, embedder: Any, op: ImportOp) -> dict:
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
        texts = [
            normalize(f"{mems[i].context}\n{mems[i].content}" if mems[i].context else mems[i].content)
            for i in redo
        ]
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
