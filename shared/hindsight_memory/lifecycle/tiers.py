"""Tiers by access: hot (used in the last week), warm (the last month), idle (older, still searched), and cold
(archived into its own table, searched only when asked). Archiving moves, it never deletes."""

from datetime import datetime, timedelta
from typing import Any

from ..config import Settings
from ..models import Memory, Status
from ..storage.lance import COLD, MEMORIES, LanceStore
from ..writer.messages import ArchiveOp, RestoreOp

HOT, WARM, IDLE, COLD_TIER = "hot", "warm", "idle", "cold"
ARCHIVED_FROM = "_archived_from"  # metadata key: the status a memory had when it was archived
FORGOTTEN_FROM = "_forgotten_from"  # ... and when it was soft-forgotten


def last_used(m: Memory) -> datetime:
    """When the memory was last recalled, or stored, or seen again, whichever is latest."""
    return max(t for t in (m.last_accessed_at, m.stored_at, m.last_seen_at) if t is not None)


def tier_of(m: Memory, now: datetime, s: Settings) -> str:
    idle = now - last_used(m)
    if idle <= timedelta(days=s.tier_hot_days):
        return HOT
    return WARM if idle <= timedelta(days=s.tier_warm_days) else IDLE


def should_archive(m: Memory, now: datetime, s: Settings) -> bool:
    """Very low confidence and unused for a long time. Working memory is trimmed elsewhere, never archived."""
    return (
        m.status in (Status.active, Status.superseded)
        and m.kind != "working"
        and m.confidence < s.archive_below_confidence
        and now - last_used(m) > timedelta(days=s.archive_after_days)
    )


def archive(store: LanceStore, op: ArchiveOp) -> dict[str, Any]:
    """Copy to the cold table first, then delete from memories: a crash in between leaves a copy, not a loss."""
    found = store.get(op.namespace, op.ids, with_vectors=True)
    if not found:
        return {"archived": 0}
    cold = [
        m.model_copy(
            update={
                "status": Status.archived,
                "tier": COLD_TIER,
                "updated_at": op.at,
                "metadata": {**m.metadata, ARCHIVED_FROM: m.status.value},
            }
        )
        for m, _ in found
    ]
    store.upsert(cold, [v for _, v in found], table=COLD)
    store.delete(op.namespace, [m.id for m in cold], table=MEMORIES)
    return {"archived": len(cold)}


def restore(store: LanceStore, op: RestoreOp) -> dict[str, Any]:
    """Archived memories come back from the cold table; soft-forgotten ones become what they were."""
    ns = op.namespace
    back = store.get(ns, op.ids, with_vectors=True, table=COLD)
    if back:
        mems = [_revived(m, op.at) for m, _ in back]
        store.upsert(mems, [v for _, v in back], table=MEMORIES)
        store.delete(ns, [m.id for m in mems], table=COLD)
    forgotten = [(m, v) for m, v in store.get(ns, op.ids, with_vectors=True) if m.status == Status.forgotten]
    if forgotten:
        store.upsert([_revived(m, op.at) for m, _ in forgotten], [v for _, v in forgotten])
    return {"restored": len(back) + len(forgotten)}


def _revived(m: Memory, at: datetime) -> Memory:
    meta = dict(m.metadata)
    before = [meta.pop(k, None) for k in (FORGOTTEN_FROM, ARCHIVED_FROM)]
    status = next(
        (b for b in before if b in (Status.active.value, Status.superseded.value)), Status.active.value
    )
    # A restored memory was just asked for: it counts as used now, so the next compaction does not re-archive it.
    return m.model_copy(
        update={
            "status": Status(status),
            "tier": HOT,
            "metadata": meta,
            "updated_at": at,
            "last_accessed_at": at,
        }
    )
