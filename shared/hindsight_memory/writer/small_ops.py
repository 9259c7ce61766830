"""The writer's small ops: usage counts, feedback, field updates, reflection's verdicts, clearing working memory."""

from typing import Any

from ..models import as_utc, utcnow
from .context import Handler, Pending, WriterState, leave_working, working_turns_of
from .messages import AdjustOp, ClearWorkingOp, FeedbackOp, TouchOp, UpdateOp

FEEDBACK_STEP = 0.1


def touch(writer: WriterState, op: TouchOp, pending: Pending) -> int:
    mems = pending.load(writer.store, op.namespace, op.ids)
    for m in mems:
        pending.put(
            m.model_copy(
                update={
                    "access_count": m.access_count + op.counts.get(m.id, 1),
                    "last_accessed_at": as_utc(op.at),
                    "tier": "hot",
                }
            ),
            pending.vectors[m.id],
        )
    return len(mems)


def feedback(writer: WriterState, op: FeedbackOp, pending: Pending) -> dict[str, Any]:
    mems = pending.load(writer.store, op.namespace, [op.id])
    if not mems:
        return {"found": False}
    m = mems[0]
    step = FEEDBACK_STEP if op.useful else -FEEDBACK_STEP
    meta = dict(m.metadata)
    fb = dict(meta.get("_feedback", {"useful": 0, "not_useful": 0}))
    fb["useful" if op.useful else "not_useful"] += 1
    meta["_feedback"] = fb
    upd: dict[str, Any] = {
        "importance": min(1.0, max(0.0, m.importance + step)),
        "metadata": meta,
        "updated_at": as_utc(op.at),
    }
    if op.useful:
        upd["last_confirmed_at"] = as_utc(op.at)
    pending.put(m.model_copy(update=upd), pending.vectors[m.id])
    return {"found": True, "importance": upd["importance"]}


def update(writer: WriterState, op: UpdateOp, pending: Pending) -> int:
    mems = pending.load(writer.store, op.namespace, list(op.changes))
    for m in mems:
        pending.put(m.model_copy(update={**op.changes[m.id], "updated_at": utcnow()}), pending.vectors[m.id])
    return len(mems)


def adjust(writer: WriterState, op: AdjustOp, pending: Pending) -> dict[str, Any]:
    mems = pending.load(writer.store, op.namespace, [op.id])
    if not mems:
        return {"found": False}
    m = mems[0]
    at = as_utc(op.at)
    upd: dict[str, Any] = {
        "confidence": round(min(1.0, max(0.05, m.confidence + op.confidence_delta)), 4),
        "source_ids": m.source_ids + [s for s in op.add_source_ids if s not in m.source_ids],
        "metadata": {**m.metadata, **op.metadata},
        "updated_at": at,
    }
    if op.confirmed:
        upd.update(last_confirmed_at=at, seen_count=m.seen_count + 1, last_seen_at=at)
    pending.put(m.model_copy(update=upd), pending.vectors[m.id])
    return {"found": True, "confidence": upd["confidence"]}


def clear_working(writer: WriterState, op: ClearWorkingOp, pending: Pending) -> int:
    ns, sid = op.namespace, op.session_id
    rows = writer.store.find(ns, working_turns_of(sid), with_vectors=True)
    leave_working(writer.store, ns, rows, utcnow())
    return len(rows)


# The writer's own ops; the store path (StoreOp) is batched across ops and handled by the writer itself.
HANDLERS: dict[type, Handler] = {
    TouchOp: Handler(touch),
    FeedbackOp: Handler(feedback),
    UpdateOp: Handler(update),
    AdjustOp: Handler(adjust),
    ClearWorkingOp: Handler(clear_working, after_commit=True),
}
