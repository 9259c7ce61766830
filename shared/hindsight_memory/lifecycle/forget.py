"""Forget: soft (hidden at once, restorable) or purge (gone from every table and every old table version)."""

from datetime import timedelta

from ..models import Status
from ..storage.lance import COLD, EVENTS, MEMORIES, LanceStore
from ..writer.messages import ForgetOp


def forget(store: LanceStore, op: ForgetOp) -> dict:
    ns = op.namespace
    ids = _resolve(store, ns, op.ids)
    if not op.purge:
        found = store.get(ns, ids, with_vectors=True)
        mems = [m.model_copy(update={"status": Status.forgotten, "updated_at": op.at}) for m, _ in found]
        store.upsert(mems, [v for _, v in found])
        return {"forgotten": len(mems), "purged": 0}
    purged = set(ids)
    # Derived memories whose every source is purged would point at nothing: purge them too.
    frontier = set(ids)
    while frontier:
        derived = [m for m, _ in store.find(ns, lambda w: w.any_key("source_ids", frontier))
                   if m.id not in purged and set(m.source_ids) <= purged | {m.id}]
        frontier = {m.id for m in derived}
        purged |= frontier
    for table in (MEMORIES, COLD):
        store.delete(ns, purged, table=table)
    event_ids = {e["id"] for e in store.find_events(ns, lambda w: w.ids(purged, column="memory_id"))} | purged
    store.delete(ns, event_ids, table=EVENTS)
    store.prune_versions(timedelta(0))
    return {"forgotten": 0, "purged": len(purged)}


def _resolve(store: LanceStore, ns: str, ids: list[str]) -> list[str]:
    """An id from a store acknowledgement may have been merged into another memory: follow it."""
    rows = store.find_events(ns, lambda w: w.ids(ids))
    return sorted(set(ids) | {r["memory_id"] for r in rows if r.get("memory_id")})


