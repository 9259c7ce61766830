"""The writer's small ops: usage counts, feedback, field updates, reflection's verdicts, clearing working memory."""

from typing import Any

from ..models import APPLIED_OPS, Memory, as_utc, utcnow
from .context import Handler, Pending, WriterState, leave_working, working_turns_of
from .messages import AdjustOp, ClearWorkingOp, FeedbackOp, TouchOp, UpdateOp

FEEDBACK_STEP = 0.1
# Metadata key: ids of the last increments applied to a memory. The store queue is FIFO with one message group,
# so a redelivered message comes back before any later one: remembering the last few is enough to skip it.
APPLIED_OPS_KEPT = 16


def _applied(m: Memory, op_id: str) -> bool:
    return op_id in m.metadata.get(APPLIED_OPS, [])


def _with_applied(metadata: dict[str, Any], op_id: str) -> dict[str, Any]:
    kept = [i for i in metadata.get(APPLIED_OPS, []) if i != op_id][-(APPLIED_OPS_KEPT - 1) :]
    return {**metadata, APPLIED_OPS: [*kept, op_id]}


def touch(writer: WriterState, op: TouchOp, pending: Pending) -> int:
    mems = [m for m in pending.load(writer.store, op.namespace, op.ids) if not _applied(m, op.op_id)]
    for m in mems:
        pending.put(
            m.model_copy(
                update={
                    "access_count": m.access_count + op.counts.get(m.id, 1),
                    "last_accessed_at": as_utc(op.at),
                    "tier": "hot",
                    "metadata": _with_applied(m.metadata, op.op_id),
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
    if _applied(m, op.op_id):
        return {"found": True, "importance": m.importance}
    step = FEEDBACK_STEP if op.useful else -FEEDBACK_STEP
    meta = _with_applied(m.metadata, op.op_id)
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
    if _applied(m, op.op_id):
        return {"found": True, "confidence": m.confidence}
    at = as_utc(op.at)
    upd: dict[str, Any] = {
        "confidence": round(min(1.0, max(0.05, m.confidence + op.confidence_delta)), 4),
        "source_ids": m.source_ids + [s for s in op.add_source_ids if s not in m.source_ids],
        "metadata": _with_applied({**m.metadata, **op.metadata}, op.op_id),
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
