"""The writer's small ops: usage counts, feedback, field updates, reflection's verdicts, clearing working memory."""

from typing import Any

from ..models import Kind, Memory, as_utc, utcnow
from ..text import key
from .context import WriterState, _Pending
from .messages import AdjustOp, ClearWorkingOp, FeedbackOp, TouchOp, UpdateOp

FEEDBACK_STEP = 0.1


def _load(writer: WriterState, ns: str, ids: list[str], pending: _Pending) -> list[Memory]:
    missing = [i for i in ids if i not in pending.memories]
    for m, v in writer.store.get(ns, missing, with_vectors=True):
        pending.put(m, v)
    return [pending.memories[i] for i in ids if i in pending.memories and pending.memories[i].namespace == ns]


def touch(writer: WriterState, op: TouchOp, pending: _Pending) -> int:
    mems = _load(writer, op.namespace, op.ids, pending)
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


def feedback(writer: WriterState, op: FeedbackOp, pending: _Pending) -> dict:
    mems = _load(writer, op.namespace, [op.id], pending)
    if not mems:
        return {"found": False}
    m = mems[0]
    step = FEEDBACK_STEP if op.useful else -FEEDBACK_STEP
    meta = dict(m.metadata)
    fb = dict(meta.get("_feedback", {"useful": 0, "not_useful": 0}))
    fb["useful" if op.useful else "not_useful"] += 1
    meta["_feedback"] = fb
    upd = {
        "importance": min(1.0, max(0.0, m.importance + step)),
        "metadata": meta,
        "updated_at": as_utc(op.at),
    }
    if op.useful:
        upd["last_confirmed_at"] = as_utc(op.at)
    pending.put(m.model_copy(update=upd), pending.vectors[m.id])
    return {"found": True, "importance": upd["importance"]}


def update(writer: WriterState, op: UpdateOp, pending: _Pending) -> int:
    mems = _load(writer, op.namespace, list(op.changes), pending)
    for m in mems:
        pending.put(m.model_copy(update={**op.changes[m.id], "updated_at": utcnow()}), pending.vectors[m.id])
    return len(mems)


def adjust(writer: WriterState, op: AdjustOp, pending: _Pending) -> dict:
    mems = _load(writer, op.namespace, [op.id], pending)
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


def clear_working(writer: WriterState, op: ClearWorkingOp) -> int:
    ns, sid = op.namespace, op.session_id
    rows = writer.store.find(
        ns, lambda w: w.keys_in("session_key", [key(sid)]).enum_in("kind", [Kind.working])
    )
    if rows:
        writer.store.delete(ns, [m.id for m, _ in rows])
    return len(rows)
