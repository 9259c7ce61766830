"""The correction op as the single writer applies it: a person's fix of a memory becomes a NEW version (source
`user-correction`, re-embedded when its text changed) that supersedes the old one, which is kept as history.
Old and new rows are staged in the batch's `Pending`, so they land in the batch's one commit, with the correction
appended to the raw event log. Idempotent: a redelivered op finds the new version in place and only makes sure its
event exists."""

import json
from typing import Any

from ..embed.passages import embed_memories
from ..models import Memory, Source, Status, as_utc
from ..text import as_sent, key, normalize
from .context import Handler, Pending, WriterState
from .messages import CorrectOp

CORRECTION = "_correction"  # metadata key on the new version: what was corrected, when, and why


def correct(writer: WriterState, op: CorrectOp, pending: Pending) -> dict[str, Any]:
    """Stage the new version and retire the old one. Returns `applied` False (with a reason) when the memory
    is missing or no longer the current version: another correction or a newer fact got there first."""
    found = {m.id: m for m in pending.load(writer.store, op.namespace, [op.id, op.new_id])}
    if op.new_id in found:  # redelivered, or the same correction sent twice
        pending.events.append(_event(found[op.new_id], op))
        return {"applied": True, "id": op.new_id, "supersedes": op.id}
    if op.id not in found:
        return {"applied": False, "reason": "not_found"}
    old = found[op.id]
    if old.status != Status.active:
        return {
            "applied": False,
            "reason": f"this version is {old.status.value}",
            "superseded_by": old.superseded_by,
        }
    at = as_utc(op.at)
    fix = op.correction
    content = normalize(fix.content) if fix.content is not None else old.content
    original = as_sent(fix.content, content) if fix.content is not None else old.original
    old_vector = pending.vectors[old.id]
    vector, passages = old_vector, old.passages
    if content != old.content:  # embedded anew, passage by passage when long (embed/passages.py)
        [emb] = embed_memories(writer.embedder, [(content, old.context or None)], writer.passages)
        vector, passages = emb.stored, emb.spans
    new = old.model_copy(
        update={
            **fix.changes(),
            "passages": passages,
            "id": op.new_id,
            "content": content,
            "original": original,
            "source": Source.user_correction,
            "status": Status.active,
            "supersedes": old.id,
            "superseded_by": None,
            "stored_at": at,
            "updated_at": at,
            "last_confirmed_at": at,  # a person just vouched for it
            "tier": "hot",
            "embed_model": writer.embedder.model_id,
            "source_ids": [op.new_id, *(s for s in old.source_ids if s != op.new_id)],
            "metadata": {
                **old.metadata,
                CORRECTION: {
                    "of": old.id,
                    "fields": sorted(fix.changes()),
                    "note": fix.note or "",
                    "at": at.isoformat(),
                },
            },
        }
    )
    pending.put(
        old.model_copy(update={"status": Status.superseded, "superseded_by": new.id, "updated_at": at}),
        old_vector,
    )
    pending.put(new, vector)
    pending.events.append(_event(new, op))
    return {"applied": True, "id": new.id, "supersedes": old.id}


def _event(m: Memory, op: CorrectOp) -> dict[str, Any]:
    """The correction as a raw event (the log keeps what every version was made from)."""
    return {
        "id": m.id,
        "namespace": m.namespace,
        "session_id": m.session_id or "",
        "session_key": key(m.session_id) if m.session_id else "",
        "kind": m.kind.value,
        "content": m.shown,
        "context": m.context,
        "occurred_at": m.stored_at,  # the correction happened now; the memory keeps when its fact happened
        "stored_at": m.stored_at,
        "source": Source.user_correction.value,
        "tags": m.tags,
        "entities": m.entities,
        "importance": m.importance,
        "metadata": json.dumps(m.metadata.get(CORRECTION, {}), ensure_ascii=False),
        "idem_key": op.idem_key,
        "memory_id": m.id,
    }


HANDLERS: dict[type, Handler] = {CorrectOp: Handler(correct)}
