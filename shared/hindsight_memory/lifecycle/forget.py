"""Forget: soft (hidden at once, restorable) or purge (gone from every table, the reflection run log, the
full-text index, every old table version and every old object version). Select by ids, a filter, or a whole
namespace."""

from functools import partial
from typing import Any

from ..models import Memory, Status
from ..storage.filters import Where
from ..storage.lance import COLD, MEMORIES, LanceStore
from ..storage.objects import drop_noncurrent_versions
from ..writer.messages import ForgetFilter, ForgetOp
from .tiers import FORGOTTEN_FROM

MERGED_FROM = "_merged_from"  # metadata key: ids that compaction folded into this memory


def forget(store: LanceStore, op: ForgetOp) -> dict[str, Any]:
    ns = op.namespace
    if op.everything:
        return _forget_namespace(store, op)
    targets = _select(store, ns, op)
    if not op.purge:
        return {"forgotten": _soft(store, ns, targets, op), "purged": 0}
    purged = _with_derived(store, ns, {m.id for m in targets})
    mems = [m for table in (MEMORIES, COLD) for m, _ in store.get(ns, purged, table=table)]
    event_ids = purged | {i for m in mems for i in m.metadata.get(MERGED_FROM, [])}
    event_ids |= {e["id"] for e in store.find_events(ns, lambda w: w.ids(purged, column="memory_id"))}
    store.purge_ids(ns, purged, event_ids)
    # A reflection run's detail quotes the episode and lessons it wrote: runs naming a purged id go too
    # (compared in Python, never pasted into a filter).
    store.purge_runs(
        ns, [r["id"] for r in store.runs(ns) if any(i in f"{r['detail']} {r['reason']}" for i in purged)]
    )
    _erase_old_copies(store)
    return {"forgotten": 0, "purged": len(purged)}


def _erase_old_copies(store: LanceStore) -> None:
    """Deleted rows live on in old table versions, the full-text index and, on a versioned bucket, in the
    noncurrent versions of the objects LanceDB deleted: remove all three."""
    store.purge_history()
    drop_noncurrent_versions(store.uri, store.storage_options)


def _forget_namespace(store: LanceStore, op: ForgetOp) -> dict[str, Any]:
    spaces = store.subtree(op.namespace) if op.subtree else [op.namespace]
    out = {"forgotten": 0, "purged": 0, "namespaces": len(spaces)}
    for ns in spaces:
        if op.purge:
            out["purged"] += store.count(ns) + store.count(ns, table=COLD)
            store.purge_namespace(ns)
            continue
        for table in (MEMORIES, COLD):
            for page in store.scan(ns, table, with_vectors=True):
                out["forgotten"] += _hide(
                    store, [(m, v) for m, v in page if m.status != Status.forgotten], op, table
                )
    if op.purge:
        _erase_old_copies(store)
    return out


def _soft(store: LanceStore, ns: str, targets: list[Memory], op: ForgetOp) -> int:
    n = 0
    for table in (MEMORIES, COLD):
        found = store.get(ns, [m.id for m in targets], with_vectors=True, table=table)
        n += _hide(store, [(m, v) for m, v in found if m.status != Status.forgotten], op, table)
    return n


def _hide(store: LanceStore, found: list[tuple[Memory, Any]], op: ForgetOp, table: str) -> int:
    # The status before forgetting is kept, so a restore brings back exactly what was there.
    mems = [
        m.model_copy(
            update={
                "status": Status.forgotten,
                "updated_at": op.at,
                "metadata": {**m.metadata, FORGOTTEN_FROM: m.status.value},
            }
        )
        for m, _ in found
    ]
    store.upsert(mems, [v for _, v in found], table=table)
    return len(mems)


def _select(store: LanceStore, ns: str, op: ForgetOp) -> list[Memory]:
    ids = _resolve(store, ns, op.ids) if op.ids else set()
    out = {m.id: m for table in (MEMORIES, COLD) for m, _ in store.get(ns, ids, table=table)}
    flt = op.filter
    if flt is not None:
        for table in (MEMORIES, COLD):
            out.update({m.id: m for m, _ in store.find(ns, lambda w: _where(w, flt), table=table)})
    return list(out.values())


def _derived_from(ids: set[str], w: Where) -> Where:
    return w.any_key("source_ids", ids)


def _where(w: Where, f: ForgetFilter) -> Where:
    """Filter clauses from validated parts only (labels are compared as digests, never as text)."""
    return w.labels(
        kinds=f.kinds,
        tags=f.tags,
        entities=f.entities,
        session_id=f.session_id,
        since=f.after,
        until=f.before,
    )


def _resolve(store: LanceStore, ns: str, ids: list[str]) -> set[str]:
    """An id from a store acknowledgement may have been merged into another memory (at store time, or later
    by compaction): follow it to the memory that holds it now."""
    out = set(ids) | {
        r["memory_id"] for r in store.find_events(ns, lambda w: w.ids(ids)) if r.get("memory_id")
    }
    for table in (MEMORIES, COLD):
        for m, _ in store.find(ns, lambda w: w.any_key("source_ids", ids), table=table):
            if set(ids) & set(m.metadata.get(MERGED_FROM, [])):
                out.add(m.id)
    return out


def _with_derived(store: LanceStore, ns: str, ids: set[str]) -> set[str]:
    """Derived memories whose every source is purged would point at nothing: purge them too."""
    purged = set(ids)
    frontier = set(ids)
    while frontier:
        derived = [
            m
            for table in (MEMORIES, COLD)
            for m, _ in store.find(ns, partial(_derived_from, frontier), table=table)
            if m.id not in purged and set(m.source_ids) <= purged | {m.id}
        ]
        frontier = {m.id for m in derived}
        purged |= frontier
    return purged
