"""Compaction: tiers, archiving, merging near-duplicates, summarising value histories, then table upkeep.
Reads happen here; every change goes through the write queue to the single writer. Work per run is bounded
(time and rows) and a cursor in the catalog lets the next run continue where this one stopped."""

import json
import time
from collections import defaultdict
from datetime import datetime
from typing import Any

import numpy as np

from ..embed.passages import alike, whole
from ..models import Kind, Memory, MemoryCreate, Source, Status, StoreRequest, utcnow
from ..ports import MemoryPort
from ..storage.filters import Where
from ..text import content_hash, key
from ..writer.facts import Thresholds, relate, statement, thresholds_for
from ..writer.learned import one_fact
from ..writer.messages import ArchiveOp, CatalogOp, MergeOp, UpdateOp, UpkeepOp
from ..writer.reading import readings
from ..writer.storing import is_turn
from .tiers import should_archive, tier_of

CURSOR = "compact_cursor"
HISTORY_OF = "_history_of"  # metadata key of a history summary: the slot it summarises
MIN_CHANGES = 2  # summarise once a value has been replaced at least this many times


def compact(
    svc: MemoryPort,
    namespace: str | None = None,
    *,
    max_seconds: float | None = None,
    max_rows: int | None = None,
    now: datetime | None = None,
    upkeep: bool = True,
) -> dict[str, Any]:
    """One bounded run over one namespace or all of them; `done` is False when the budget ran out first."""
    s = svc.settings
    deadline = time.monotonic() + (max_seconds if max_seconds is not None else s.compact_max_seconds)
    rows_left = max_rows if max_rows is not None else s.compact_max_rows
    now = now or utcnow()
    store = svc.store
    cursor = json.loads(store.catalog().get(CURSOR, "{}")) if namespace is None else {}
    namespaces = (
        [namespace] if namespace else [n for n in store.namespaces() if n >= cursor.get("namespace", "")]
    )
    report: dict[str, Any] = defaultdict(int)
    report["done"] = True
    for ns in namespaces:
        after = cursor.get("after_id", "") if ns == cursor.get("namespace") else ""
        if rows_left <= 0 or time.monotonic() >= deadline:
            cursor, report["done"] = {"namespace": ns, "after_id": after}, False
            break
        last, used = _namespace(svc, ns, after, rows_left, deadline, now, report)
        rows_left -= used
        report["namespaces"] += 1
        if last is not None:  # stopped inside this namespace
            cursor, report["done"] = {"namespace": ns, "after_id": last}, False
            break
    else:
        cursor = {}
    if namespace is None:
        svc.apply_op(CatalogOp(entries={CURSOR: json.dumps(cursor)}))
    report["cursor"] = cursor
    if upkeep and time.monotonic() < deadline:
        out = svc.apply_op(
            UpkeepOp(
                retention_hours=s.version_retention_hours,
                scalar_min_rows=s.scalar_index_min_rows,
                vector_min_rows=s.vector_index_min_rows,
            ),
            timeout_s=3600,
        ) or {"queued": True}
        report["dropped_tables"] = out.pop("dropped_tables", [])
        report["upkeep"] = out
    return dict(report)


def _namespace(
    svc: MemoryPort, ns: str, after: str, budget: int, deadline: float, now: datetime, report: dict[str, Any]
) -> tuple[str | None, int]:
    """Process memories of `ns` with ids after `after`, in id order; returns (last id if stopped early, rows used)."""
    store, s = svc.store, svc.settings
    mems = sorted((m for page in store.scan(ns) for m, _ in page if m.id > after), key=lambda m: m.id)
    if not after:
        report["summaries"] += _summarise_histories(svc, ns, mems)
    todo, stopped = mems[:budget], None
    if len(mems) > budget:
        stopped = todo[-1].id
    tiers: dict[str, dict[str, Any]] = {}
    archive: list[str] = []
    for m in todo:
        if should_archive(m, now, s):
            archive.append(m.id)
        elif m.status in (Status.active, Status.superseded) and tier_of(m, now, s) != m.tier:
            tiers[m.id] = {"tier": tier_of(m, now, s)}
    if tiers:
        svc.apply_op(UpdateOp(namespace=ns, changes=tiers))
    if archive:
        svc.apply_op(ArchiveOp(namespace=ns, ids=archive, at=now))
    report["tiers_changed"] += len(tiers)
    report["archived"] += len(archive)
    if time.monotonic() < deadline:
        report["merged"] += _merge_duplicates(svc, ns, [m for m in todo if m.id not in set(archive)], now)
    report["rows"] += len(todo)
    return stopped, len(todo)


def _merge_duplicates(svc: MemoryPort, ns: str, mems: list[Memory], now: datetime) -> int:
    """Active memories of one kind that the writer's rules (writer/facts.py) call duplicates fold into the
    oldest one. Conversation turns never do: each is its own event."""
    store = svc.store
    th = thresholds_for(svc.embedder, svc.settings.compact_merge_threshold)
    cands = [m for m in mems if m.status == Status.active and not is_turn(m) and not m.supersedes]
    if not cands:
        return 0
    with_vec = {m.id: (m, v) for m, v in store.get(ns, [m.id for m in cands], with_vectors=True)}
    cands = [with_vec[m.id][0] for m in cands if m.id in with_vec]
    vectors = np.stack([whole(with_vec[m.id][1]) for m in cands])
    near = store.nearest_many(ns, vectors, Where(ns).enum_in("status", [Status.active]), limit=6)
    taken: set[str] = set()
    merged = 0
    for m, hits in zip(cands, near, strict=True):
        if m.id in taken:
            continue
        group = [m] + [
            o
            for o, cos, v in hits
            if o.id != m.id
            and o.id not in taken
            and o.kind == m.kind
            and not o.supersedes
            and not is_turn(o)
            and _passages_agree(svc, with_vec[m.id], (o, v))
            and _duplicates(svc, with_vec[m.id], (o, v), cos, th)
        ]
        if len(group) < 2:
            continue
        keep = min(group, key=lambda g: (g.stored_at, g.id))
        absorb = [g.id for g in group if g.id != keep.id]
        taken |= {g.id for g in group}
        out = svc.apply_op(MergeOp(namespace=ns, keep=keep.id, absorb=absorb, at=now))
        merged += (out or {"merged": len(absorb)})["merged"]
    return merged


def _passages_agree(svc: MemoryPort, a: tuple[Memory, Any], b: tuple[Memory, Any]) -> bool:
    """A split memory is another's duplicate only passage by passage too (as at write time, writer/storing.py):
    its mean barely moves when one paragraph changes. The same text, or memories embedded whole: always."""
    (ma, va), (mb, vb) = a, b
    if (np.ndim(va) == 1 and np.ndim(vb) == 1) or content_hash(ma.content) == content_hash(mb.content):
        return True
    return alike(va, vb, svc.settings.compact_merge_threshold or svc.embedder.calibration.duplicate)


def _duplicates(
    svc: MemoryPort, a: tuple[Memory, Any], b: tuple[Memory, Any], cosine: float, th: Thresholds
) -> bool:
    (older, v_old), (newer, v_new) = sorted((a, b), key=lambda mv: (mv[0].occurred_at, mv[0].id))
    read: list[np.ndarray] = []

    def query_side() -> tuple[np.ndarray, np.ndarray]:
        if not read:  # as the writer reads them
            read.extend(svc.embedder.embed_query(t) for t in readings(older.content, newer.content))
        return read[0], read[1]

    def sharper() -> float:
        return float(np.dot(*query_side()))

    def learned() -> float:
        return one_fact(svc.embedder.model_id, (older.content, newer.content), v_old, v_new, query_side)

    old_s = statement(older.content, older.entities, older.slot)
    new_s = statement(newer.content, newer.entities, newer.slot)
    return relate(old_s, new_s, cosine, th, sharper, learned).relation == "duplicate"


def _summarise_histories(svc: MemoryPort, ns: str, mems: list[Memory]) -> int:
    """'budget changed 3 times, now 12000': one semantic memory per slot whose value was replaced several times.
    The originals stay as history; the summary lists them as its sources, and its own slot means a newer
    summary replaces it instead of piling up."""
    by_id = {m.id: m for m in mems}
    items = []
    for cur in mems:
        if (
            cur.status != Status.active
            or not cur.slot
            or HISTORY_OF in cur.metadata
            or cur.kind == Kind.working
        ):
            continue
        chain = [cur]
        while chain[-1].supersedes and chain[-1].supersedes in by_id and len(chain) < 50:
            chain.append(by_id[chain[-1].supersedes])
        if len(chain) - 1 < MIN_CHANGES:
            continue
        chain.reverse()
        values = " → ".join(f"{m.content} ({m.occurred_at:%Y-%m-%d})" for m in chain)
        items.append(
            MemoryCreate(
                content=f"{cur.slot} changed {len(chain) - 1} times, now: {cur.content}. History: {values}",
                kind=Kind.semantic,
                source=Source.compact,
                slot=f"{cur.slot} history",
                occurred_at=cur.occurred_at,
                entities=cur.entities,
                tags=cur.tags,
                importance=cur.importance,
                confidence=cur.confidence,
                source_ids=[m.id for m in chain],
                metadata={HISTORY_OF: key(cur.slot)},
            )
        )
    if items:
        # A remote writer (serverless) applies them in order after this run; waiting would only spend its time.
        svc.store_memories(StoreRequest(namespace=ns, items=items, wait=not svc.remote_writer))
    return len(items)
